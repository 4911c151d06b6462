/**
 * @module namespaces/connector/signed-request
 * Verifies requests the hub sends here: query parameters `token` (`<blog token key>:1:0`),
 * `timestamp`, `nonce`, `body-hash` and `signature` (see `remote/connector-signature.ts`). The
 * timestamp must be within {@link REPLAY_WINDOW_S} of now and each (timestamp, nonce) is accepted
 * once, so a captured request cannot be sent again.
 */
import type { AppContext } from '../../app-context.js';
import type { RestRequest } from '../../rest/route.js';
import { bodyHash, computeSignature, signaturesEqual, splitToken } from '../../remote/connector-signature.js';
import { loadState, recordSignatureError } from './state.js';

export const REPLAY_WINDOW_S = 600;

export type SignatureCheck = { ok: true } | { ok: false; code: string };

const checked = new WeakMap<RestRequest, Promise<SignatureCheck>>();

function param(req: RestRequest, name: string): string | undefined {
  const v = req.query[name];
  return typeof v === 'string' ? v : undefined;
}

async function verify(req: RestRequest, ctx: AppContext): Promise<SignatureCheck> {
  const token = param(req, 'token');
  const signature = param(req, 'signature');
  const timestamp = param(req, 'timestamp');
  const nonce = param(req, 'nonce');
  if (!token || !signature || !timestamp || !nonce) return { ok: false, code: 'unsigned' };
  const state = await loadState(ctx);
  const blog = state.blog_token ? splitToken(state.blog_token) : undefined;
  if (!blog || state.id === null) return { ok: false, code: 'no_valid_blog_token' };
  const [key, version, userId] = token.split(':');
  if (version !== '1' || userId !== '0') return { ok: false, code: 'malformed_token' };
  if (key !== blog.key) return { ok: false, code: 'unknown_token' };
  if (!/^\d{1,12}$/.test(timestamp) || !/^[A-Za-z0-9_-]{1,64}$/.test(nonce)) return { ok: false, code: 'invalid_nonce' };
  const now = Math.floor(ctx.now().getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > REPLAY_WINDOW_S) return { ok: false, code: 'invalid_signature' };
  const hash = bodyHash(req.rawBody);
  if ((param(req, 'body-hash') ?? '') !== hash) return { ok: false, code: 'invalid_body_hash' };
  const url = `${ctx.config.baseUrl}${ctx.config.apiPath}${req.route}`;
  const expected = computeSignature(blog.secret, { token, timestamp, nonce, bodyHash: hash, method: req.method, url });
  if (!signaturesEqual(expected, signature)) return { ok: false, code: 'signature_mismatch' };
  // The nonce is spent only by a request that passed everything else.
  await ctx.db.deleteFrom('connector_nonces').where('timestamp', '<', now - REPLAY_WINDOW_S * 2).execute();
  const inserted = await ctx.db
    .insertInto('connector_nonces')
    .values({ nonce, timestamp: Number(timestamp) })
    .onConflict((oc) => oc.columns(['timestamp', 'nonce']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return { ok: false, code: 'invalid_nonce' };
  return { ok: true };
}

/** True when the request carries a valid blog-token signature (checked once per request). */
export async function isSignedWithBlogToken(req: RestRequest, ctx: AppContext): Promise<boolean> {
  let pending = checked.get(req);
  if (!pending) {
    pending = verify(req, ctx).then(async (result) => {
      // A request that tried to sign and failed is recorded so the hub can ask about it.
      if (!result.ok && result.code !== 'unsigned') {
        ctx.log.info({ code: result.code, route: req.route }, 'connector: refused a signed request');
        await recordSignatureError(ctx, result.code, 0);
      }
      return result;
    });
    checked.set(req, pending);
  }
  return (await pending).ok;
}
