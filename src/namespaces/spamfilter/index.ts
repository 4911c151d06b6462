/**
 * @module namespaces/spamfilter
 * The spam filter `spamfilter/v1` (the original `akismet/v1`): key, settings, stats, alert and the
 * service's webhook; and, for other areas, {@link spamfilterService}: checks through the remote
 * service (`REMOTE_SPAMFILTER_URL`) or the built-in classifier, recorded for `stats`.
 */
import { defineArea } from '../../area.js';
import { approvedCounts, checkSpam, markCheck, verdictsByGuid } from './checks.service.js';
import { spamfilterRoutes } from './spamfilter.routes.js';
import { FLAGS, showApprovedCounts } from './settings.js';

export const spamfilterArea = defineArea({
  id: 'spamfilter',
  title: 'Spam filter',
  description: 'Spam checks for forms through a remote service or a built-in classifier, with settings and statistics.',
  namespaces: [spamfilterRoutes],
  settings: {
    // Unset, the worst spam is kept (the original reads the option without a default when it acts),
    // although `GET /settings` reports `true` for it as the original does.
    spamfilter_strictness: { default: '0', description: "'1': discard the worst spam from signed-out senders instead of keeping it." },
    spamfilter_show_user_comments_approved: { default: FLAGS.spamfilter_show_user_comments_approved, description: "'1': show each sender's approved count on the submissions page." },
    spamfilter_enable_mcp_access: { default: FLAGS.spamfilter_enable_mcp_access, description: 'Allow MCP clients access.' },
  },
});

/**
 * What other areas use: check a submission, correct a verdict, read current verdicts, and each
 * sender's approved count with whether the site shows it.
 */
export const spamfilterService = Object.freeze({ checkSpam, markCheck, verdictsByGuid, approvedCounts, showApprovedCounts });
export type { SpamCheckInput, SpamCheckResult } from './checks.service.js';
export { SPAMFILTER_NS } from './spamfilter.routes.js';
