/**
 * @module namespaces/mailing-list/local-list
 * The local subscriber list used when no remote list service is configured: members per list with
 * `pending` / `subscribed` / `unsubscribed`, real double opt-in (a confirmation e-mail carrying a
 * signed link), signed unsubscribe links and the CSV export.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';

const SECRET_OPTION = 'mailinglist_secret';

async function secret(ctx: AppContext): Promise<string> {
  const existing = await ctx.options.get<unknown>(SECRET_OPTION, null);
  if (typeof existing === 'string' && existing.length >= 32) return existing;
  await ctx.db
    .insertInto('options')
    .values({ name: SECRET_OPTION, value: JSON.stringify(crypto.randomBytes(32).toString('base64url')) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  ctx.options.clearCache();
  return String(await ctx.options.get(SECRET_OPTION));
}

/** Signature of `action` for the member `list`/`email`. */
export async function signLink(ctx: AppContext, action: 'confirm' | 'unsubscribe', list: string, email: string): Promise<string> {
  return crypto.createHmac('sha256', await secret(ctx)).update(`${action}|${list}|${email.toLowerCase()}`).digest('base64url');
}

export async function verifyLink(ctx: AppContext, action: 'confirm' | 'unsubscribe', list: string, email: string, sig: unknown): Promise<boolean> {
  if (typeof sig !== 'string') return false;
  const expected = Buffer.from(await signLink(ctx, action, list, email));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export async function linkFor(ctx: AppContext, action: 'confirm' | 'unsubscribe', list: string, email: string): Promise<string> {
  const q = new URLSearchParams({ list, email, sig: await signLink(ctx, action, list, email) });
  return `${ctx.urls.home}/mailinglist/${action}?${q.toString()}`;
}

const gmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

export interface LocalMember {
  status: string;
}

export async function getLocalMember(ctx: AppContext, list: string, email: string): Promise<LocalMember | undefined> {
  return ctx.db.selectFrom('mailinglist_subscribers').select('status').where('list_id', '=', list).where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** Adds or updates a member. */
export async function upsertLocalMember(ctx: AppContext, list: string, email: string, status: string, fields: Record<string, unknown>): Promise<void> {
  const now = gmt(ctx.now());
  const lower = email.toLowerCase();
  await ctx.db
    .insertInto('mailinglist_subscribers')
    .values({ list_id: list, email: lower, fields: JSON.stringify(fields), status, created_gmt: now, updated_gmt: now })
    .onConflict((oc) => oc.columns(['list_id', 'email']).doUpdateSet({ status, fields: JSON.stringify(fields), updated_gmt: now }))
    .execute();
}

/** Moves a member to `status` when it is in one of `from`; false when nothing changed. */
export async function setLocalStatus(ctx: AppContext, list: string, email: string, status: string, from: readonly string[]): Promise<boolean> {
  const r = await ctx.db
    .updateTable('mailinglist_subscribers')
    .set({ status, updated_gmt: gmt(ctx.now()) })
    .where('list_id', '=', list)
    .where('email', '=', email.toLowerCase())
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Sends the double opt-in e-mail with the signed confirmation link. */
export async function sendConfirmation(ctx: AppContext, list: string, email: string): Promise<void> {
  const site = String(await ctx.options.get('blogname'));
  const confirm = await linkFor(ctx, 'confirm', list, email);
  await ctx.mailer.send({
    to: email,
    subject: `${site.replace(/[\r\n]+/g, ' ')}: please confirm your subscription`,
    text: `Someone (hopefully you) asked to receive e-mail from ${site} at this address.\n\nTo confirm, open this link:\n${confirm}\n\nIf that was not you, ignore this message; nothing will be sent to you.\n`,
  });
}

const cell = (v: string) => `"${(/^[=+\-@\t\r]/.test(v) ? `'${v}` : v).replace(/"/g, '""')}"`;

export async function exportCsv(ctx: AppContext, list?: string): Promise<string> {
  let q = ctx.db.selectFrom('mailinglist_subscribers').selectAll().orderBy('list_id').orderBy('email');
  if (list) q = q.where('list_id', '=', list);
  const rows = await q.execute();
  const lines = [['list', 'email', 'status', 'fields', 'created_gmt', 'updated_gmt'].map(cell).join(',')];
  for (const r of rows) lines.push([r.list_id, r.email, r.status, r.fields, r.created_gmt, r.updated_gmt].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
