/**
 * @module namespaces/contact-forms/submissions.repo
 * Stored submissions (who, when, what, outcome, spam check guid) for the admin page and its CSV export.
 */
import type { AppContext } from '../../app-context.js';

export interface StoredSubmission {
  id: number;
  formId: number;
  status: string;
  fields: Record<string, string | string[]>;
  remoteIp: string;
  userAgent: string;
  userId: number;
  spamGuid: string;
  createdGmt: string;
}

export async function storeSubmission(ctx: AppContext, s: Omit<StoredSubmission, 'id'>): Promise<void> {
  await ctx.db
    .insertInto('contact_form_submissions')
    .values({
      form_id: s.formId,
      status: s.status,
      fields: JSON.stringify(s.fields),
      remote_ip: s.remoteIp.slice(0, 64),
      user_agent: s.userAgent.slice(0, 1000),
      user_id: s.userId,
      spam_guid: s.spamGuid.slice(0, 64),
      created_gmt: s.createdGmt,
    })
    .execute();
}

export async function listSubmissions(ctx: AppContext, formId: number, limit = 1000): Promise<StoredSubmission[]> {
  const rows = await ctx.db.selectFrom('contact_form_submissions').selectAll().where('form_id', '=', formId).orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    formId: r.form_id,
    status: r.status,
    fields: JSON.parse(r.fields) as Record<string, string | string[]>,
    remoteIp: r.remote_ip,
    userAgent: r.user_agent,
    userId: r.user_id,
    spamGuid: r.spam_guid,
    createdGmt: r.created_gmt,
  }));
}

export async function getSubmission(ctx: AppContext, id: number): Promise<{ formId: number; spamGuid: string } | undefined> {
  const r = await ctx.db.selectFrom('contact_form_submissions').select(['form_id', 'spam_guid']).where('id', '=', id).executeTakeFirst();
  return r ? { formId: r.form_id, spamGuid: r.spam_guid } : undefined;
}

export async function countSubmissions(ctx: AppContext, formId: number): Promise<number> {
  const r = await ctx.db.selectFrom('contact_form_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('form_id', '=', formId).executeTakeFirst();
  return Number(r?.n ?? 0);
}
