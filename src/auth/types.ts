/**
 * @module auth/types
 * The contract between the HTTP host and authentication: who is calling, or the error that ends the
 * request before routing (WordPress's `rest_authentication_errors` stage).
 */
import type { RestError } from '../rest/errors.js';
import type { AuthInfo, RestUser, UploadedFile } from '../rest/route.js';

export interface AuthInput {
  /** Lower-cased header names (`authorization`, `cookie`, `x-wp-nonce`, ...). */
  headers: Record<string, string>;
  /** Parsed query (for `_wpnonce`). */
  query: Record<string, unknown>;
  /** Parsed form body (for `_wpnonce`). */
  body: Record<string, unknown>;
  ip: string;
  /** The HTTP request as it arrived, for checks of a signature over it (REST requests only). */
  request?: ReceivedRequest;
}

/** What a request signature covers, as received. */
export interface ReceivedRequest {
  /** The HTTP method on the wire (not a `_method` / `X-HTTP-Method-Override` override). */
  method: string;
  /** Path and query string as sent (`/wp-json/ns/route?a=1`). */
  url: string;
  /** The body text; undefined when there is none or it is not read yet (multipart). */
  rawBody: string | undefined;
  /** True for a multipart body, which is read only after authentication. */
  multipart: boolean;
  /**
   * Reads the multipart body for a check that needs it (a signature over its fields), once: later
   * calls, and the host after authentication, get the same answer. Undefined when no route would
   * read the body; a RestError when it cannot be read (too large, malformed).
   */
  readMultipart?: () => Promise<ReceivedForm | RestError | undefined>;
}

/** A multipart body as read: its fields parsed as PHP's `$_POST`, and the files the route keeps. */
export interface ReceivedForm {
  body: Record<string, unknown>;
  files: Record<string, UploadedFile>;
}

export interface AuthOutcome {
  user: RestUser | null;
  auth: AuthInfo;
  /** Headers to add to the response (a fresh `X-WP-Nonce` after a good cookie + nonce check). */
  headers: Record<string, string>;
}

export interface Authenticator {
  authenticate(input: AuthInput): Promise<AuthOutcome | RestError>;
}
