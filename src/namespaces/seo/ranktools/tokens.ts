/**
 * @module namespaces/seo/ranktools/tokens
 * Stored tokens of a ranking tool (`semrush_tokens`, `wincher_tokens`), refreshed when expired.
 */
import type { AppContext } from '../../../app-context.js';
import { OAuthError, type OAuthClient, type OAuthTokens } from '../../../remote/oauth2-client.js';
import { SEO_MESSAGES } from '../errors.js';
import { getSeoOption, setSeoOption } from '../store.js';

/** No tokens stored: the original's 400. */
export class EmptyTokenError extends Error {
  constructor() {
    super(SEO_MESSAGES.tokenEmpty);
  }
}

/** A refresh that failed: the original's 401. */
export class AuthenticationFailedError extends Error {
  constructor(reason: string) {
    super(`${SEO_MESSAGES.authFailed}: ${reason}`);
  }
}

export async function storedTokens(ctx: AppContext, key: 'semrush_tokens' | 'wincher_tokens'): Promise<OAuthTokens | undefined> {
  const t = await getSeoOption<unknown>(ctx, key);
  return t && typeof t === 'object' && !Array.isArray(t) && typeof (t as OAuthTokens).access_token === 'string' ? (t as OAuthTokens) : undefined;
}

/** A valid access token, refreshing (and storing) expired tokens first. */
export async function accessToken(ctx: AppContext, key: 'semrush_tokens' | 'wincher_tokens', client: OAuthClient): Promise<string> {
  const tokens = await storedTokens(ctx, key);
  if (!tokens) throw new EmptyTokenError();
  if (tokens.expires > Math.floor(ctx.now().getTime() / 1000)) return tokens.access_token;
  if (!tokens.refresh_token) throw new AuthenticationFailedError('the token has expired');
  try {
    const fresh = await client.refresh(tokens.refresh_token);
    await setSeoOption(ctx, key, fresh);
    return fresh.access_token;
  } catch (e) {
    throw new AuthenticationFailedError(e instanceof OAuthError ? e.message : String(e));
  }
}

/** The body-and-status answer the original's ranking-tool routes give for these errors. */
export function tokenErrorBody(e: unknown): { body: Record<string, unknown>; status: number } | undefined {
  if (e instanceof EmptyTokenError) return { body: { error: e.message, status: 400 }, status: 400 };
  if (e instanceof AuthenticationFailedError) return { body: { error: e.message, status: 401 }, status: 401 };
  if (e instanceof OAuthError) {
    const status = e.status >= 400 && e.status < 600 ? e.status : 502;
    return { body: { error: e.message, status }, status };
  }
  return undefined;
}

/** The original's `has_valid_code` for an OAuth code argument: anything but the empty string (not trimmed). */
export const hasCode = (v: unknown): true | string => ((typeof v === 'string' || typeof v === 'number') && v !== '') || 'must not be empty.';
