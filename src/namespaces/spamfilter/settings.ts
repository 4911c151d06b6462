/**
 * @module namespaces/spamfilter/settings
 * The spam filter's stored state: the API key (read-only when the environment fixes it), the three
 * flags stored as `'1'`/`'0'` like the original, and the last alert the remote service reported.
 */
import type { AppContext } from '../../app-context.js';
import { phpTruthy } from '../../rest/php-builtins.js';
import { createSpamfilterClient, type SpamfilterAlert, type SpamfilterClient } from '../../remote/spamfilter-client.js';

export const KEY_OPTION = 'spamfilter_api_key';
export const ALERT_CODE_OPTION = 'spamfilter_alert_code';
export const ALERT_MSG_OPTION = 'spamfilter_alert_msg';

/** Flag name → default when absent (as the original reads its options). */
export const FLAGS = Object.freeze({
  spamfilter_strictness: '1',
  spamfilter_show_user_comments_approved: '1',
  spamfilter_enable_mcp_access: '0',
} as const);

export type FlagName = keyof typeof FLAGS;

/** True when `SPAMFILTER_API_KEY` fixes the key (the original's `WPCOM_API_KEY` constant). */
export function keyIsHardcoded(ctx: AppContext): boolean {
  return ctx.config.spamfilterApiKey !== undefined;
}

/** The API key in force, or undefined. */
export async function getApiKey(ctx: AppContext): Promise<string | undefined> {
  if (ctx.config.spamfilterApiKey !== undefined) return ctx.config.spamfilterApiKey;
  const stored = await ctx.options.get<unknown>(KEY_OPTION, null);
  return typeof stored === 'string' && stored !== '' ? stored : undefined;
}

export async function getSettings(ctx: AppContext): Promise<Record<FlagName, boolean>> {
  const out = {} as Record<FlagName, boolean>;
  for (const [name, fallback] of Object.entries(FLAGS) as [FlagName, string][]) {
    out[name] = String(await ctx.options.get<unknown>(name, fallback)) === '1';
  }
  return out;
}

export async function getAlert(ctx: AppContext): Promise<{ code: string | false; message: string | false }> {
  const code = await ctx.options.get<unknown>(ALERT_CODE_OPTION, false);
  const message = await ctx.options.get<unknown>(ALERT_MSG_OPTION, false);
  return { code: typeof code === 'string' ? code : false, message: typeof message === 'string' ? message : false };
}

export async function clearAlert(ctx: AppContext): Promise<void> {
  await ctx.options.delete(ALERT_CODE_OPTION);
  await ctx.options.delete(ALERT_MSG_OPTION);
}

/**
 * The original's `update_alert`: a reply states the current alert, so each part it carries is stored
 * and each part it lacks (or sends empty or `0`, falsy in PHP) is deleted: an alert the service no
 * longer reports disappears.
 */
async function storeAlert(ctx: AppContext, alert: SpamfilterAlert): Promise<void> {
  for (const [option, value] of [[ALERT_CODE_OPTION, alert.code], [ALERT_MSG_OPTION, alert.message]] as const) {
    if (phpTruthy(value)) await ctx.options.set(option, value);
    else await ctx.options.delete(option);
  }
}

/** The remote client when `REMOTE_SPAMFILTER_URL` is set; the alert its replies state is stored. */
export function remoteClient(ctx: AppContext): SpamfilterClient | undefined {
  const endpoint = ctx.config.remotes.spamfilter;
  if (!endpoint) return undefined;
  return createSpamfilterClient({ endpoint, blog: ctx.urls.home, onAlert: (alert) => storeAlert(ctx, alert) });
}

/**
 * Whether blatant spam may be discarded (the original's `Akismet::allow_discard`): never for a
 * signed-in sender, and only when strictness was chosen: the option read without a default, so a
 * site that never saved it keeps its spam although `GET /settings` reports `true` for it.
 */
export async function allowDiscard(ctx: AppContext, signedIn: boolean): Promise<boolean> {
  return !signedIn && (await ctx.options.get<unknown>('spamfilter_strictness', null)) === '1';
}

/**
 * Whether the approved count is shown beside each sender (the original's `comment_row_action`):
 * on until someone saves the setting; the legacy value `'false'` and PHP-falsy values turn it off.
 */
export async function showApprovedCounts(ctx: AppContext): Promise<boolean> {
  const value = await ctx.options.get<unknown>('spamfilter_show_user_comments_approved', '1');
  return value !== 'false' && phpTruthy(value);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function gmt(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
