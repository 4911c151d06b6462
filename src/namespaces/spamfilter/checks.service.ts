/**
 * @module namespaces/spamfilter/checks.service
 * Spam checks for other areas (contact forms, the mailing list): the remote service when one is
 * configured with a key, else the built-in classifier. Every check is stored in `spamfilter_checks`
 * by guid; administrators' and the remote service's corrections train the classifier and feed `stats`.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { SpamfilterRemoteError, type SpamfilterFields } from '../../remote/spamfilter-client.js';
import { spamProbability, tokenize, train, type ClassifierInput } from './classifier.js';
import { allowDiscard, getApiKey, gmt, remoteClient } from './settings.js';

/** Probability from which the built-in classifier calls a submission spam, and blatant spam. */
export const SPAM_THRESHOLD = 0.9;
export const BLATANT_THRESHOLD = 0.999;

export interface SpamCheckInput extends ClassifierInput {
  /** Which area asks (`contact-form`, `mailinglist`). */
  source: string;
  ip: string;
  referrer?: string;
  permalink?: string;
  /** The original's `comment_type` (`contact-form`, `signup`). */
  type?: string;
  /** The signed-in sender's user id (0 or absent: nobody is signed in). */
  userId?: number;
}

export interface SpamCheckResult {
  spam: boolean;
  /** Blatant spam that may be discarded (store nothing): see {@link allowDiscard}. */
  discard: boolean;
  guid: string;
  via: 'local' | 'remote';
}

function protocolFields(input: SpamCheckInput): SpamfilterFields {
  const f: SpamfilterFields = {
    user_ip: input.ip,
    user_agent: input.userAgent ?? '',
    referrer: input.referrer ?? '',
    permalink: input.permalink ?? '',
    comment_type: input.type ?? input.source,
    comment_author: input.author ?? '',
    comment_author_email: input.email ?? '',
    comment_author_url: input.url ?? '',
    comment_content: input.content ?? '',
  };
  return f;
}

/**
 * Who sent a submission, as the original counts a commenter's approved comments
 * (`Akismet::get_user_comments_approved`): the signed-in user, else the e-mail address with the name
 * and the URL, compared without case; `''` when there is neither. Stored hashed (fixed length).
 */
export function senderOf(input: SpamCheckInput): string {
  const text = (v: string | undefined) => (v ?? '').toLowerCase();
  const userId = input.userId !== undefined && input.userId > 0 ? input.userId : 0;
  const identity = userId ? `user:${userId}` : text(input.email) ? `email:${text(input.email)}\n${text(input.author)}\n${text(input.url)}` : '';
  return identity && crypto.createHash('sha256').update(identity).digest('hex');
}

/** Checks one submission and records the check. */
export async function checkSpam(ctx: AppContext, input: SpamCheckInput): Promise<SpamCheckResult> {
  const mayDiscard = await allowDiscard(ctx, (input.userId ?? 0) > 0);
  const client = remoteClient(ctx);
  const key = client ? await getApiKey(ctx) : undefined;
  let result: SpamCheckResult | undefined;
  if (client && key) {
    try {
      const v = await client.commentCheck(key, protocolFields(input));
      result = { spam: v.spam, discard: v.spam && v.discard && mayDiscard, guid: v.guid || crypto.randomUUID(), via: 'remote' };
    } catch (e) {
      // As the original: an unreachable service lets the submission through the remote check; the
      // built-in classifier still gives its opinion.
      ctx.log.warn({ err: e instanceof SpamfilterRemoteError ? e.message : String(e) }, 'spam filter service failed; using the built-in classifier');
    }
  }
  if (!result) {
    const p = await spamProbability(ctx.db, tokenize(input));
    result = { spam: p >= SPAM_THRESHOLD, discard: p >= BLATANT_THRESHOLD && mayDiscard, guid: crypto.randomUUID(), via: 'local' };
  }
  await ctx.db
    .insertInto('spamfilter_checks')
    .values({
      guid: result.guid.slice(0, 64),
      source: input.source.slice(0, 40),
      verdict: result.spam ? 'spam' : 'ham',
      via: result.via,
      actual: null,
      fields: JSON.stringify(input),
      sender: senderOf(input),
      created_gmt: gmt(ctx.now()),
    })
    .execute();
  return result;
}

/**
 * An administrator says check `guid` was `label`: the classifier learns it (unlearning an earlier
 * correction), the remote service is told (`submit-spam`/`submit-ham`) when configured. False when
 * no check has that guid.
 */
export async function markCheck(ctx: AppContext, guid: string, label: 'spam' | 'ham'): Promise<boolean> {
  const row = await ctx.db.selectFrom('spamfilter_checks').selectAll().where('guid', '=', guid).orderBy('id', 'desc').executeTakeFirst();
  if (!row) return false;
  if (row.actual === label) return true;
  const input = JSON.parse(row.fields) as SpamCheckInput;
  const tokens = tokenize(input);
  if (row.actual === 'spam' || row.actual === 'ham') await train(ctx.db, tokens, row.actual, -1);
  await train(ctx.db, tokens, label, 1);
  await ctx.db.updateTable('spamfilter_checks').set({ actual: label }).where('id', '=', row.id).execute();
  const client = remoteClient(ctx);
  const key = client ? await getApiKey(ctx) : undefined;
  if (client && key) {
    await client.submit(label, key, { ...protocolFields(input), guid }).catch((e: unknown) => {
      ctx.log.warn({ err: e instanceof Error ? e.message : String(e) }, `spam filter submit-${label} failed`);
    });
  }
  return true;
}

/**
 * For each guid, how many of its sender's checks are currently ham (the original's "N approved"
 * beside each comment author); 0 for a sender nobody can tell apart.
 */
export async function approvedCounts(ctx: AppContext, guids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const wanted = [...new Set(guids.filter(Boolean))];
  if (wanted.length === 0) return out;
  const checks = await ctx.db.selectFrom('spamfilter_checks').select(['guid', 'sender']).where('guid', 'in', wanted).execute();
  const senders = [...new Set(checks.map((c) => c.sender).filter(Boolean))];
  const counts = new Map<string, number>();
  if (senders.length > 0) {
    const rows = await ctx.db
      .selectFrom('spamfilter_checks')
      .select((eb) => ['sender', eb.fn.countAll<number>().as('n')])
      .where('sender', 'in', senders)
      .where((eb) => eb.fn.coalesce('actual', 'verdict'), '=', 'ham')
      .groupBy('sender')
      .execute();
    for (const r of rows) counts.set(r.sender, Number(r.n));
  }
  for (const c of checks) out.set(c.guid, counts.get(c.sender) ?? 0);
  return out;
}

/** The current verdict of each guid: the correction when there is one, else the check's verdict. */
export async function verdictsByGuid(ctx: AppContext, guids: readonly string[]): Promise<Map<string, 'spam' | 'ham'>> {
  const out = new Map<string, 'spam' | 'ham'>();
  const wanted = [...new Set(guids.filter(Boolean))];
  if (wanted.length === 0) return out;
  const rows = await ctx.db.selectFrom('spamfilter_checks').select(['guid', 'verdict', 'actual']).where('guid', 'in', wanted).execute();
  for (const r of rows) out.set(r.guid, (r.actual ?? r.verdict) === 'spam' ? 'spam' : 'ham');
  return out;
}
