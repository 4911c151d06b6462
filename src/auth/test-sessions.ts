/**
 * @module auth/test-sessions
 * Test helper: a signed-in cookie session for a user, with its REST nonce, without going through the
 * sign-in form.
 */
import type { AppContext } from '../app-context.js';
import { REST_NONCE_ACTION } from './authenticator.js';
import { createNonce } from './nonces.js';
import { issueSession } from './session.js';
import { SiteUser, loadUserRow } from './users.js';

export interface TestSession {
  /** `Cookie` header value. */
  cookie: string;
  /** A valid `wp_rest` nonce for the session. */
  nonce: string;
  token: string;
}

/** Signs user `userId` in (the user must have a sign-in password). */
export async function signInForTest(ctx: AppContext, userId: number): Promise<TestSession> {
  const row = await loadUserRow(ctx, userId);
  if (!row) throw new Error(`no user ${userId}`);
  const session = await issueSession(ctx, row, false);
  const cookie = session.setCookie.split(';')[0]!;
  const nonce = await createNonce(ctx, { user: new SiteUser(row, ctx.roles), auth: { method: 'cookie', sessionToken: session.token } }, REST_NONCE_ACTION);
  return { cookie, nonce, token: session.token };
}
