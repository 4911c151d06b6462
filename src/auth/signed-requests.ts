/**
 * @module auth/signed-requests
 * The extension point through which an area authenticates requests a remote service signed (the
 * site connector's hub, as the original's `determine_current_user` and `rest_authentication_errors`
 * filters do it). The authenticator asks every enabled area's check before any other credential:
 * the first check that claims the request decides it.
 */
import type { AppContext } from '../app-context.js';
import type { RestError } from '../rest/errors.js';
import type { RestUser } from '../rest/route.js';
import type { AuthInput } from './types.js';

/** A verified signature: the user it acts for, or the site itself (no user). */
export type SignedCaller = { signedWith: 'user'; user: RestUser } | { signedWith: 'site'; user: null };

/**
 * Undefined when the request is not signed for this check (other credentials then apply), the
 * verified caller, or the error that ends the request (a signature that does not verify).
 */
export type SignedRequestCheck = (ctx: AppContext, input: AuthInput) => Promise<SignedCaller | RestError | undefined>;

declare module '../area.js' {
  interface ExtensionPoints {
    signedRequests: SignedRequestCheck;
  }
}

/** The first answer of the enabled areas' checks; undefined when none claims the request. */
export async function checkSignedRequest(ctx: AppContext, input: AuthInput): Promise<SignedCaller | RestError | undefined> {
  if (!input.request) return undefined;
  for (const check of ctx.areas.contributions('signedRequests')) {
    const answer = await check(ctx, input);
    if (answer) return answer;
  }
  return undefined;
}
