/**
 * @module namespaces/shop-admin/mobile-app.service
 * `mobile-app/send-magic-link`: e-mails the signed-in manager a one-time sign-in link (valid 15
 * minutes, usable once, stored hashed), and the page that link opens, which signs the browser in and
 * goes on to the dashboard. The routes are declared in `mobile-app.routes.ts`.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { issueSession } from '../../auth/session.js';
import { loadUserRow } from '../../auth/users.js';
import { postDatePair } from '../../content/posts.js';
import type { RestRequest } from '../../rest/route.js';
import { ShopAdminErrors } from './errors.js';

const LINK_TTL_MS = 15 * 60_000;
const PAGE = 'magic-link.php';

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const gmt = (ctx: AppContext, ms: number) => postDatePair(new Date(ms), 'UTC').gmt;

/** Mails the signed-in manager a one-time sign-in link. */
export async function sendMagicLink(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const user = req.user!;
  if (!ctx.mailer.configured) throw ShopAdminErrors.mailNotConfigured();
  const token = crypto.randomBytes(32).toString('base64url');
  await ctx.db.insertInto('magic_links').values({ token_hash: hash(token), user_id: user.id, expires_gmt: gmt(ctx, ctx.now().getTime() + LINK_TTL_MS) }).execute();
  const link = `${ctx.urls.admin}${PAGE}?token=${token}`;
  const site = String(await ctx.options.get('blogname'));
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: `[${site}] Your sign-in link`,
      text: `Open this link on your phone to sign in to ${site}. It works once, within 15 minutes:\n\n${link}\n\nIf you did not ask for it, ignore this message.`,
    });
  } catch (err) {
    ctx.log.error({ err: err instanceof Error ? err.message : String(err) }, 'magic link mail failed');
    throw ShopAdminErrors.magicLinkNotSent();
  }
  return { code: 'success' };
}

/** Signs in with a valid, unused, unexpired link (used up at once, also across processes). */
async function openMagicLink(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const token = String(((request.query ?? {}) as Record<string, unknown>).token ?? '');
  const now = gmt(ctx, ctx.now().getTime());
  const row = token === '' ? undefined : await ctx.db.selectFrom('magic_links').select(['user_id']).where('token_hash', '=', hash(token)).executeTakeFirst();
  const claimed = row ? await ctx.db.updateTable('magic_links').set({ used: 1 }).where('token_hash', '=', hash(token)).where('used', '=', 0).where('expires_gmt', '>', now).executeTakeFirst() : undefined;
  const user = row && Number(claimed?.numUpdatedRows ?? 0) === 1 ? await loadUserRow(ctx, row.user_id) : undefined;
  if (!user) {
    return reply.code(403).header('Content-Type', 'text/html; charset=UTF-8').header('Cache-Control', 'no-store')
      .send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link expired</title></head><body><p>This sign-in link has expired or was used already. Ask for a new one.</p></body></html>');
  }
  const session = await issueSession(ctx, user, false);
  return reply.code(302).header('Set-Cookie', session.setCookie).header('Cache-Control', 'no-store').header('Location', ctx.urls.admin).send();
}

export function registerMagicLinkPage(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${ctx.config.adminPath}/${PAGE}`, (request, reply) => openMagicLink(ctx, request, reply));
}
