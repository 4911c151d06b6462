/**
 * @module http/edge-errors
 * The errors the HTTP host raises itself, before or around the REST dispatcher, in the REST error
 * shape `{code, message, data:{status}}`: a malformed URL, request line and headers over Node's
 * limit, an unparsable body (multipart without boundary), a body too large, an unknown page, and
 * anything unexpected (500, logged).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CoreErrors, type RestError } from '../rest/errors.js';
import { errorWire } from '../rest/serve.js';
import { restHeaders } from './headers.js';

export interface EdgeOptions {
  apiRoot: string;
  bodyLimit: number;
  /** Recognises an error thrown by the app that has an answer other than 500 (the database unavailable: 503). */
  classify?: (err: unknown) => RestError | undefined;
}

function send(reply: FastifyReply, request: FastifyRequest, apiRoot: string, error: RestError): FastifyReply {
  const wire = errorWire(error);
  return reply.code(wire.status).headers({ ...restHeaders(apiRoot, request.headers.origin, false), ...wire.headers }).send(wire.body);
}

/** busboy's message when `multipart/form-data` has no (or an empty) boundary. */
const NO_BOUNDARY = /boundary not found/i;

/** The RestError for an error Fastify or a plugin raised while reading a request. */
export function edgeError(err: FastifyError | Error, bodyLimit: number): RestError | undefined {
  const { code, statusCode } = err as FastifyError;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || statusCode === 413) return CoreErrors.tooLarge(bodyLimit);
  if (NO_BOUNDARY.test(err.message)) return CoreErrors.invalidBody();
  if (code === 'FST_ERR_BAD_URL') return CoreErrors.invalidUrl();
  if (statusCode && statusCode >= 400 && statusCode < 500) return CoreErrors.invalidRequest(err.message, statusCode);
  return undefined;
}

/** Fastify's `setErrorHandler`: client errors answered, the rest logged and answered 500. */
export function edgeErrorHandler({ apiRoot, bodyLimit, classify }: EdgeOptions) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const error = edgeError(err, bodyLimit) ?? classify?.(err);
    if (!error) request.log.error({ err }, 'unhandled error');
    return send(reply, request, apiRoot, error ?? CoreErrors.internal());
  };
}

/** Fastify's `frameworkErrors`: a path with a malformed percent-encoding, and the router's other refusals. */
export function edgeFrameworkErrors({ apiRoot, bodyLimit }: EdgeOptions) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply =>
    send(reply, request, apiRoot, edgeError(err, bodyLimit) ?? CoreErrors.internal());
}

/** Fastify's `setNotFoundHandler`: no page or route here. */
export function edgeNotFound({ apiRoot }: EdgeOptions) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => send(reply, request, apiRoot, CoreErrors.noRoute());
}

/**
 * Fastify's `clientErrorHandler`: Node could not parse the request (request line and headers over
 * the limit — e.g. thousands of query parameters —, bad syntax, too slow), so there is no request to
 * answer through Fastify; the answer is written to the socket, which is then closed.
 */
export function edgeClientErrorHandler(log: FastifyBaseLogger) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const error =
      err.code === 'HPE_HEADER_OVERFLOW' ? CoreErrors.headersTooLarge() : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? CoreErrors.timeout() : CoreErrors.badRequest();
    log.debug({ err: err.message, code: err.code }, 'client error');
    if (socket.writable) {
      const wire = errorWire(error);
      const body = wire.body ?? '';
      socket.write(
        `HTTP/1.1 ${wire.status} ${http.STATUS_CODES[wire.status]}\r\nContent-Type: ${wire.headers['Content-Type']}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
