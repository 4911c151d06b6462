/**
 * @module namespaces/spamfilter/webhook.service
 * The remote service's later verdicts (`POST /webhook`, endpoint `comment-check`): each is applied
 * to the stored check with its guid, unless an administrator corrected that check since (the
 * original acts only when Akismet made the last status change).
 */
import type { AppContext } from '../../app-context.js';
import { SpamfilterErrors, WEBHOOK_MESSAGES } from './errors.js';

type Outcome = { status: 'success' } | { status: 'error'; message: string };

/** Applies a webhook body; the answer is `{comments: {guid: outcome}}` (or `{comments: []}`). */
export async function applyWebhook(ctx: AppContext, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (body.endpoint !== 'comment-check') return { comments: [] };
  // Any PHP array will do, a JSON object (keyed entries) as well as a list.
  const raw = body.comments;
  if (raw === null || typeof raw !== 'object') throw SpamfilterErrors.malformedWebhook();
  const comments: unknown[] = Array.isArray(raw) ? raw : Object.values(raw);
  const processed: Record<string, Outcome> = {};
  for (const entry of comments) {
    if (!entry || typeof entry !== 'object') continue;
    const c = entry as Record<string, unknown>;
    const guid = typeof c.guid === 'string' || typeof c.guid === 'number' ? String(c.guid) : '';
    if (!guid) continue; // without the guid the right submission cannot be known
    const rows = await ctx.db.selectFrom('spamfilter_checks').select(['id', 'verdict', 'actual']).where('guid', '=', guid.slice(0, 64)).execute();
    if (rows.length === 0) {
      processed[guid] = { status: 'error', message: WEBHOOK_MESSAGES.noMatch };
      continue;
    }
    if (rows.length > 1) {
      processed[guid] = { status: 'error', message: WEBHOOK_MESSAGES.multiple };
      continue;
    }
    const row = rows[0]!;
    const verdict = c.result === 'true' || c.result === true ? 'spam' : c.result === 'false' || c.result === false ? 'ham' : undefined;
    // webhook-spam / webhook-ham, or *-noaction when a person has the last word or nothing changes.
    if (verdict && row.actual === null && row.verdict !== verdict) {
      await ctx.db.updateTable('spamfilter_checks').set({ verdict }).where('id', '=', row.id).execute();
    }
    processed[guid] = { status: 'success' };
  }
  return { comments: processed };
}
