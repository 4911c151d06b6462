/**
 * @module rest/errors
 * The one error class of the REST core and the catalogue of core error codes.
 * Handlers throw or return a RestError; anything else thrown becomes a generic 500.
 */

/** An error the client should see: a WordPress-shaped `{code, message, data:{status, ...}}`. */
export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown> | undefined;
  /** Further errors carried along, emitted as `additional_errors` (WordPress WP_Error semantics). */
  readonly additional: RestError[];

  constructor(code: string, message: string, status: number, data?: Record<string, unknown>, additional: RestError[] = []) {
    super(message);
    this.name = 'RestError';
    this.code = code;
    this.status = status;
    this.data = data;
    this.additional = additional;
  }

  /** The wire shape. Key order follows WordPress: code, message, data (status first), additional_errors. */
  toJSON(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      code: this.code,
      message: this.message,
      data: { status: this.status, ...this.data },
    };
    if (this.additional.length > 0) body.additional_errors = this.additional.map((e) => e.toJSON());
    return body;
  }
}

/** The `Retry-After` header an error asks for (`data.retry_after` seconds), if any. */
export function retryAfterHeader(error: RestError): Record<string, string> {
  const seconds = error.data?.retry_after;
  return typeof seconds === 'number' ? { 'Retry-After': String(seconds) } : {};
}

/** True when `value` is a RestError (also across module copies). */
export function isRestError(value: unknown): value is RestError {
  return value instanceof RestError;
}

/** Core messages, kept in one place. */
export const MESSAGES = {
  noRoute: 'No route was found matching the URL and request method.',
  invalidNamespace: 'The specified namespace could not be found.',
  invalidJson: 'Invalid JSON body passed.',
  missingParams: (names: string[]) => `Missing parameter(s): ${names.join(', ')}`,
  invalidParams: (names: string[]) => `Invalid parameter(s): ${names.join(', ')}`,
  invalidParam: 'Invalid parameter.',
  forbidden: 'Sorry, you are not allowed to do that.',
  internal: 'An unexpected error occurred while processing the request.',
  batchNotAllowed: 'The requested route does not support batch requests.',
  parsePathFailed: 'Could not parse the path.',
  tooLarge: 'The request body is too large.',
  callbackInvalid: 'Invalid JSONP callback function.',
  invalidUrl: 'The URL is not valid: a "%" must start an encoded character (%XX).',
  headersTooLarge: 'The request line and headers are too large; send long parameter lists in the body.',
  badRequest: 'The HTTP request could not be parsed.',
  timeout: 'The request took too long to arrive.',
  noBoundary: 'The multipart/form-data body has no boundary.',
  valueOutOfRange: 'Invalid parameter(s): a value is out of range or too long.',
  unavailable: 'The site’s database is unavailable at the moment. Please try again shortly.',
  shuttingDown: 'This server is shutting down. Please send the request again.',
} as const;

/**
 * Why one parameter is invalid: `false`/`undefined` → the generic "Invalid parameter." (no details);
 * a string → that message; a RestError → its message (and its additional errors'), with details.
 */
export type ParamFailure = false | undefined | string | RestError;

interface ErrorDetail {
  code: string;
  message: string;
  data: unknown;
  additional_errors?: ErrorDetail[];
}

function detailOf(error: RestError): ErrorDetail {
  const detail: ErrorDetail = { code: error.code, message: error.message, data: error.data ?? null };
  if (error.additional.length > 0) {
    detail.additional_errors = error.additional.map((e) => ({ code: e.code, message: e.message, data: e.data ?? null }));
  }
  return detail;
}

/**
 * WordPress's `rest_invalid_param` (400) for every failing parameter, in the order given:
 * `data.params` maps each name to its message(s), `data.details` each name with a message to
 * `{code, message, data}` (`[]` when none, as PHP encodes an empty array). The one way to build it:
 * the args stage, the checks and handlers that find a parameter invalid late all use this.
 *
 * @example
 * throw invalidParams({ end_date: 'The event end date must not be before its start date.' });
 */
export function invalidParams(failures: Record<string, ParamFailure>): RestError {
  const names = Object.keys(failures);
  const params: Record<string, string> = {};
  const details: Record<string, ErrorDetail> = {};
  for (const name of names) {
    const failure = failures[name];
    if (failure === false || failure === undefined) {
      params[name] = MESSAGES.invalidParam;
      continue;
    }
    const error = typeof failure === 'string' ? new RestError('rest_invalid_param', failure, 400) : failure;
    params[name] = [error, ...error.additional].map((e) => e.message).join(' ');
    details[name] = detailOf(error);
  }
  return new RestError('rest_invalid_param', MESSAGES.invalidParams(names), 400, {
    params,
    details: Object.keys(details).length > 0 ? details : [],
  });
}

/** One invalid parameter (see {@link invalidParams}). */
export function invalidParam(name: string, failure?: ParamFailure): RestError {
  return invalidParams({ [name]: failure });
}

/**
 * An error made without capturing a stack trace: for the answers that are the commonest (an unknown
 * route is what every scanner asks for), where capturing the stack costs more than the routing.
 */
function withoutStack(make: () => RestError): RestError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Factories for the core catalogue; codes and statuses are those of the WordPress REST server. */
export const CoreErrors = {
  noRoute: () => withoutStack(() => new RestError('rest_no_route', MESSAGES.noRoute, 404)),
  invalidNamespace: () => new RestError('rest_invalid_namespace', MESSAGES.invalidNamespace, 404),
  /** `json_last_error()` / `json_last_error_msg()` as PHP reports them: a raw control character in a string (3), else a syntax error (4). */
  invalidJson: (controlCharacter = false) =>
    new RestError(
      'rest_invalid_json',
      MESSAGES.invalidJson,
      400,
      controlCharacter
        ? { json_error_code: 3, json_error_message: 'Control character error, possibly incorrectly encoded' }
        : { json_error_code: 4, json_error_message: 'Syntax error' },
    ),
  missingParams: (names: string[]) =>
    new RestError('rest_missing_callback_param', MESSAGES.missingParams(names), 400, { params: names }),
  forbidden: (loggedIn: boolean, message: string = MESSAGES.forbidden, code = 'rest_forbidden') =>
    new RestError(code, message, loggedIn ? 403 : 401),
  internal: () => new RestError('internal_server_error', MESSAGES.internal, 500),
  batchNotAllowed: () => new RestError('rest_batch_not_allowed', MESSAGES.batchNotAllowed, 400),
  parsePathFailed: () => new RestError('parse_path_failed', MESSAGES.parsePathFailed, 400),
  tooLarge: (limit: number) => new RestError('rest_request_too_large', MESSAGES.tooLarge, 413, { max_bytes: limit }),
  /** A value the database cannot hold (an ID beyond 32 bits, an over-long name): the client's mistake. */
  valueOutOfRange: () => new RestError('rest_invalid_param', MESSAGES.valueOutOfRange, 400),
  /** The database cannot serve now (restarting, unreachable, read-only, full): try again after `retryAfter` seconds. */
  unavailable: (retryAfter: number) => new RestError('rest_database_unavailable', MESSAGES.unavailable, 503, { retry_after: retryAfter }),
  /** A request arriving on an open connection while the server drains for shutdown. */
  shuttingDown: () => new RestError('rest_service_unavailable', MESSAGES.shuttingDown, 503, { retry_after: 1 }),
  // The HTTP edge's own errors (no WordPress equivalent: Apache/PHP would answer these in HTML).
  invalidUrl: () => new RestError('rest_invalid_url', MESSAGES.invalidUrl, 400),
  headersTooLarge: () => new RestError('rest_headers_too_large', MESSAGES.headersTooLarge, 431),
  badRequest: () => new RestError('rest_bad_request', MESSAGES.badRequest, 400),
  timeout: () => new RestError('rest_request_timeout', MESSAGES.timeout, 408),
  invalidBody: (message: string = MESSAGES.noBoundary) => new RestError('rest_invalid_body', message, 400),
  /** Another client error of the HTTP host (a 4xx Fastify or a plugin raised), with its status. */
  invalidRequest: (message: string, status: number) => new RestError('rest_invalid_request', message, status),
} as const;
