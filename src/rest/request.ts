/**
 * @module rest/request
 * Builds RestRequests (for HTTP and batch) and merges parameter sources with WordPress precedence:
 * JSON > form body > query > URL > defaults, where `null` counts as absent.
 */
import type { AuthInfo, HttpMethod, RequestLocals, RestRequest, RestUser, UploadedFile } from './route.js';

export interface RestRequestInit {
  method: HttpMethod;
  route: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  json?: Record<string, unknown>;
  rawBody?: string;
  headers?: Record<string, string>;
  files?: Record<string, UploadedFile>;
  user?: RestUser | null;
  auth?: AuthInfo;
  ip?: string;
}

const FORM_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for `application/json`, `application/x+json` (case-insensitive, parameters allowed). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

class Request implements RestRequest {
  method: HttpMethod;
  route: string;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  json: Record<string, unknown> | undefined;
  rawBody: string | undefined;
  urlParams: Record<string, string> = {};
  headers: Record<string, string>;
  files: Record<string, UploadedFile>;
  user: RestUser | null;
  auth: AuthInfo;
  ip: string;
  params: Record<string, unknown> = {};
  locals: RequestLocals = {};

  constructor(init: RestRequestInit) {
    this.method = init.method;
    this.route = init.route;
    this.query = init.query ?? {};
    this.body = init.body ?? {};
    this.json = init.json;
    this.rawBody = init.rawBody;
    this.headers = init.headers ?? {};
    this.files = init.files ?? {};
    this.user = init.user ?? null;
    this.auth = init.auth ?? { method: 'none' };
    this.ip = init.ip ?? '';
  }

  /** Sources from lowest to highest precedence (defaults come from the args stage). */
  sources(): Record<string, unknown>[] {
    const list: Record<string, unknown>[] = [this.urlParams, this.query];
    if (FORM_METHODS.has(this.method)) list.push(this.body);
    if (this.json) list.push(this.json);
    return list;
  }

  /** The supplied (non-null) value of `name`, by precedence. */
  supplied(name: string): unknown {
    const sources = this.sources();
    for (let i = sources.length - 1; i >= 0; i--) {
      const v = Object.hasOwn(sources[i]!, name) ? sources[i]![name] : undefined;
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  }

  has(name: string): boolean {
    return this.supplied(name) !== undefined;
  }

  /** Every supplied parameter merged by precedence. */
  merged(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const src of this.sources()) {
      for (const [k, v] of Object.entries(src)) if (v !== undefined && v !== null && k !== '__proto__') out[k] = v;
    }
    return out;
  }
}

/** A new request; `params` is filled by the dispatcher's args stage. */
export function createRestRequest(init: RestRequestInit): RestRequest & { merged(): Record<string, unknown> } {
  return new Request(init);
}

/** Merged supplied parameters of any RestRequest built by {@link createRestRequest}. */
export function mergedParams(req: RestRequest): Record<string, unknown> {
  return (req as Request).merged();
}
