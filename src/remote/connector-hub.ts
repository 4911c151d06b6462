/**
 * @module remote/connector-hub
 * The connection hub the site connects to (the original's WordPress.com), at `REMOTE_CONNECTOR_URL`
 * (`config.remotes.connector`). JSON both ways; calls made for a registered site are signed with
 * its blog token (see `connector-signature.ts`), calls made for a user with that user's token.
 *
 * - `POST /register` `{siteurl, home, site_name, secret_1, secret_2, state, redirect_uri, from?, plugin_slug?, version}`
 *   → `{jetpack_id, jetpack_secret, alternate_authorization_url?}`; the hub first calls the site's `verify_registration` with
 *   `secret_1` and `state` and expects `secret_2` back.
 * - `POST /oauth/token` `{code, client_id, redirect_uri, grant_type: "authorization_code"}` (blog-signed) → `{access_token}`
 * - `POST /sites/{id}/disconnect`, `POST /sites/{id}/owner {new_owner}`,
 *   `POST /sites/{id}/user-token {nonce, external_user_id}` → `{token}`, `POST /sites/{id}/errors {errors}` (blog-signed)
 * - `GET /partner-provision-nonce-check?nonce=` → body `OK`
 * - `GET /me` (user-signed) → the user's hub profile
 * - the authorize page at `/authorize/1/`
 *
 * The hub's clock (`Client::set_time_diff`): the `Date` of a 200, 304, 400 or 401 answer sets the
 * stored offset — always after `/register` and the partner nonce check, otherwise when it moved by
 * more than {@link TIME_DIFF_SLACK_S} seconds (or none is stored). Signed calls are stamped with
 * this site's time plus the offset.
 */
import { authorizationHeader, signRequest } from './connector-signature.js';

export const HUB_TIMEOUT_MS = 10_000;
/** A learnt clock offset is replaced only when the hub's clock moved by more than this (seconds). */
export const TIME_DIFF_SLACK_S = 10;
/** The answers whose `Date` is trusted. */
const DATED_STATUSES = new Set([200, 304, 400, 401]);

/** A failed hub call; `code` is the original's error code (`register_http_request_failed`, `wpcom_500`, …). */
export class ConnectorHubError extends Error {
  constructor(readonly code: string, message: string, readonly status?: number) {
    super(message);
    this.name = 'ConnectorHubError';
  }
}

interface Signer {
  token: string;
  userId: number;
}

/** This site's clock and the stored offset of the hub's (`time_diff`, seconds). */
export interface HubClock {
  now(): Date;
  timeDiff(): Promise<number | undefined>;
  setTimeDiff(seconds: number): Promise<void>;
}

export interface HubClient {
  readonly base: string;
  authorizeUrl(params: Record<string, string>): string;
  register(payload: Record<string, unknown>): Promise<{ id: number; blogToken: string; alternateAuthorizeUrl: string }>;
  exchangeCode(blog: Signer, payload: Record<string, unknown>): Promise<string>;
  disconnect(siteId: number, blog: Signer): Promise<void>;
  switchOwner(siteId: number, blog: Signer, newOwner: number): Promise<void>;
  userToken(siteId: number, blog: Signer, nonce: string, userId: number): Promise<string>;
  partnerNonceValid(nonce: string): Promise<boolean>;
  me(user: Signer): Promise<Record<string, unknown>>;
  reportErrors(siteId: number, blog: Signer, errors: unknown[]): Promise<void>;
}

/** A hub client for `endpoint`. */
export function connectorHub(endpoint: string, clock: HubClock, fetchImpl: typeof fetch = fetch): HubClient {
  const base = endpoint.replace(/\/+$/, '');

  /** Learns the hub's clock from an answer's `Date`; `force` replaces the offset whatever it was. */
  async function learnTime(res: Response, force: boolean): Promise<void> {
    if (!DATED_STATUSES.has(res.status)) return;
    const hubTime = Math.floor(Date.parse(res.headers.get('date') ?? '') / 1000);
    if (!(hubTime > 0)) return;
    const diff = hubTime - Math.floor(clock.now().getTime() / 1000);
    const known = force ? undefined : await clock.timeDiff();
    if (known === undefined || Math.abs(diff - known) > TIME_DIFF_SLACK_S) await clock.setTimeDiff(diff);
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, signer?: Signer, forceTime = false): Promise<{ status: number; text: string }> {
    const url = `${base}${path}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (text !== undefined) headers['content-type'] = 'application/json';
    if (signer) {
      const fields = signRequest(signer.token, signer.userId, method, url, text, clock.now(), (await clock.timeDiff()) ?? 0);
      headers.authorization = authorizationHeader(fields);
    }
    let res: Response;
    try {
      res = await fetchImpl(url, { method, headers, ...(text !== undefined ? { body: text } : {}), redirect: 'error', signal: AbortSignal.timeout(HUB_TIMEOUT_MS) });
    } catch (e) {
      throw new ConnectorHubError('register_http_request_failed', `The connection hub could not be reached: ${e instanceof Error ? e.message : String(e)}`);
    }
    await learnTime(res, forceTime);
    return { status: res.status, text: await res.text() };
  }

  /** Non-2xx → `wpcom_<status>` (`wpcom_5??` for server errors); unparsable → `wpcom_bad_response`. */
  async function json(method: 'GET' | 'POST', path: string, body?: unknown, signer?: Signer, forceTime = false): Promise<Record<string, unknown>> {
    const res = await call(method, path, body, signer, forceTime);
    if (res.status >= 500) throw new ConnectorHubError('wpcom_5??', `Error Details: ${res.status}`, res.status);
    if (res.status < 200 || res.status >= 300) throw new ConnectorHubError(`wpcom_${res.status}`, `Error Details: ${res.status}`, res.status);
    try {
      const parsed = JSON.parse(res.text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new ConnectorHubError('wpcom_bad_response', 'Unknown Error', res.status);
  }

  return {
    base,
    authorizeUrl(params) {
      return `${base}/authorize/1/?${new URLSearchParams(params).toString()}`;
    },
    async register(payload) {
      const body = await json('POST', '/register', payload, undefined, true);
      const secret = body.jetpack_secret;
      if (typeof secret !== 'string' || !/^[^.\s]+\.[^.\s]+$/.test(secret)) throw new ConnectorHubError('jetpack_secret', 'Unable to validate registration of your site.');
      const id = Number(body.jetpack_id);
      if (!Number.isInteger(id) || id <= 0) throw new ConnectorHubError('jetpack_id', 'Unable to validate registration of your site.');
      const alt = body.alternate_authorization_url;
      const alternate = typeof alt === 'string' && /^https?:\/\//i.test(alt) ? alt : '';
      return { id, blogToken: secret, alternateAuthorizeUrl: alternate };
    },
    async exchangeCode(blog, payload) {
      const body = await json('POST', '/oauth/token', payload, blog);
      if (typeof body.access_token !== 'string' || !/^[^.\s]+\.[^.\s]+$/.test(body.access_token)) throw new ConnectorHubError('access_token', 'Missing or malformed access token.');
      return body.access_token;
    },
    async disconnect(siteId, blog) {
      await json('POST', `/sites/${siteId}/disconnect`, {}, blog);
    },
    async switchOwner(siteId, blog, newOwner) {
      await json('POST', `/sites/${siteId}/owner`, { new_owner: newOwner }, blog);
    },
    async userToken(siteId, blog, nonce, userId) {
      const body = await json('POST', `/sites/${siteId}/user-token`, { nonce, external_user_id: userId }, blog);
      if (typeof body.token !== 'string' || !/^[^.\s]+\.[^.\s]+$/.test(body.token)) throw new ConnectorHubError('token_fetch_failed', 'Failed to fetch user token from the hub.');
      return body.token;
    },
    async partnerNonceValid(nonce) {
      const res = await call('GET', `/partner-provision-nonce-check?${new URLSearchParams({ nonce }).toString()}`, undefined, undefined, true);
      return res.status === 200 && res.text.trim() === 'OK';
    },
    async me(user) {
      return json('GET', '/me', undefined, user);
    },
    async reportErrors(siteId, blog, errors) {
      await json('POST', `/sites/${siteId}/errors`, { errors }, blog);
    },
  };
}
