/**
 * @module remote/oauth2-client
 * A small OAuth 2 client (RFC 6749 authorization-code grant with optional PKCE, refresh grant) and
 * bearer-authenticated JSON calls, for the ranking-tool integrations. Endpoints are configured.
 */
import crypto from 'node:crypto';

export const OAUTH_TIMEOUT_MS = 10_000;

export interface OAuthConfig {
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  scope?: string;
}

/** Tokens as the original stores them (`expires` in Unix seconds). */
export interface OAuthTokens {
  access_token: string;
  refresh_token: string;
  expires: number;
  has_expired: boolean;
  created_at: number;
}

/** A failed remote call: `status` is the remote's HTTP status (0 when unreachable). */
export class OAuthError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'OAuthError';
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

export class OAuthClient {
  constructor(readonly config: OAuthConfig, readonly now: () => Date = () => new Date(), readonly fetchImpl: typeof fetch = fetch) {}

  authorizationUrl(extra: Record<string, string> = {}): string {
    const params = new URLSearchParams({ response_type: 'code', client_id: this.config.clientId, redirect_uri: this.config.redirectUri, ...(this.config.scope ? { scope: this.config.scope } : {}), ...extra });
    return `${this.config.authorizeUrl}?${params.toString()}`;
  }

  async #tokenRequest(form: Record<string, string>): Promise<OAuthTokens> {
    const body = new URLSearchParams({ client_id: this.config.clientId, ...(this.config.clientSecret ? { client_secret: this.config.clientSecret } : {}), ...form });
    let res: Response;
    try {
      res = await this.fetchImpl(this.config.tokenUrl, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: body.toString(), signal: AbortSignal.timeout(OAUTH_TIMEOUT_MS),
      });
    } catch (e) {
      throw new OAuthError(e instanceof Error ? e.message : String(e), 0);
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON
    }
    if (!res.ok) throw new OAuthError(String(json.error_description ?? json.error ?? `HTTP ${res.status}`), res.status);
    if (typeof json.access_token !== 'string' || json.access_token === '') throw new OAuthError('No access token in the answer', res.status);
    const created = Math.floor(this.now().getTime() / 1000);
    const expiresIn = Number(json.expires_in);
    return {
      access_token: json.access_token,
      refresh_token: typeof json.refresh_token === 'string' ? json.refresh_token : '',
      expires: created + (Number.isFinite(expiresIn) && expiresIn > 0 ? Math.floor(expiresIn) : 3600),
      has_expired: false,
      created_at: created,
    };
  }

  exchangeCode(code: string, extra: Record<string, string> = {}): Promise<OAuthTokens> {
    return this.#tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: this.config.redirectUri, ...extra });
  }

  refresh(refreshToken: string): Promise<OAuthTokens> {
    return this.#tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** A bearer-authenticated JSON call. */
  async call(method: 'GET' | 'POST' | 'DELETE', url: string, accessToken: string, body?: unknown): Promise<{ status: number; json: any }> {
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(OAUTH_TIMEOUT_MS),
      });
    } catch (e) {
      throw new OAuthError(e instanceof Error ? e.message : String(e), 0);
    }
    const text = await res.text();
    let json: any;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      throw new OAuthError('The answer is not JSON', res.status);
    }
    if (!res.ok) throw new OAuthError(String(json?.error_description ?? json?.error ?? json?.message ?? `HTTP ${res.status}`), res.status);
    return { status: res.status, json };
  }
}
