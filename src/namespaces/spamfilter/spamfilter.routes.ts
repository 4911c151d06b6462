/**
 * @module namespaces/spamfilter/spamfilter.routes
 * `spamfilter/v1` (the original `akismet/v1`): the API key, settings, stats, the service's alert and
 * the inbound webhook. Answers are bare JSON values as the original's handlers return them.
 */
import type { AppContext } from '../../app-context.js';
import { asciiLower, phpTrim } from '../../rest/php-builtins.js';
import { requireCapability } from '../../rest/permissions.js';
import { DELETABLE, EDITABLE, READABLE, defineRoutes, type Permission, type RestRequest } from '../../rest/route.js';
import { SpamfilterErrors } from './errors.js';
import { localStats, normaliseInterval } from './stats.service.js';
import { applyWebhook } from './webhook.service.js';
import { FLAGS, KEY_OPTION, clearAlert, getAlert, getApiKey, getSettings, keyIsHardcoded, remoteClient, type FlagName } from './settings.js';

export const SPAMFILTER_NS = 'spamfilter/v1';

const privileged = requireCapability('manage_options');

/** A scalar request value as PHP's string functions read it (`true` is `'1'`); anything else undefined. */
function phpString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  return undefined;
}

/**
 * Alert and webhook (`remote_call_permission_callback`): the request's `key` must equal the stored
 * key, ignoring case. The alert routes trim it first (their `key` arg is sanitised); the webhook
 * declares no args, so its key is compared as sent.
 */
const keyHolder: Permission<AppContext> = async (req, ctx) => {
  const stored = await getApiKey(ctx);
  const given = phpString(req.params.key);
  return stored !== undefined && given !== undefined && asciiLower(given) === asciiLower(stored);
};

/** The original's `sanitize_key`: PHP `trim` (which reads a number as its digits). */
const trim = (v: unknown) => {
  const text = phpString(v);
  return text === undefined ? v : phpTrim(text);
};

async function getKey(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  return (await getApiKey(ctx)) ?? false;
}

async function setKey(req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (keyIsHardcoded(ctx)) throw SpamfilterErrors.hardcodedKey();
  // A key that is not text (a list) is no key at all, as PHP 7's `trim` makes it null.
  const key = phpString(req.params.key) ?? '';
  const client = remoteClient(ctx);
  if (!client || key === '' || !(await client.verifyKey(key))) throw SpamfilterErrors.invalidKey();
  await ctx.options.set(KEY_OPTION, key);
  return getKey(req, ctx);
}

async function deleteKey(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (keyIsHardcoded(ctx)) throw SpamfilterErrors.hardcodedKey(true);
  await ctx.options.delete(KEY_OPTION);
  return true;
}

async function setSettings(req: RestRequest, ctx: AppContext): Promise<unknown> {
  for (const name of Object.keys(FLAGS) as FlagName[]) {
    if (req.has(name)) await ctx.options.set(name, req.params[name] ? '1' : '0');
  }
  return getSettings(ctx);
}

async function stats(interval: string, ctx: AppContext): Promise<unknown> {
  const client = remoteClient(ctx);
  if (!client) return { [interval]: await localStats(ctx, normaliseInterval(interval)) };
  const key = await getApiKey(ctx);
  const remote = key ? await client.getStats(key, normaliseInterval(interval)) : undefined;
  // The original answers an empty array when the service gives nothing, and null for an answer
  // that is not JSON (`invalid` for a key the service refuses).
  return remote === undefined ? [] : { [interval]: remote };
}

async function refreshAlert(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  await clearAlert(ctx);
  const key = await getApiKey(ctx);
  const client = remoteClient(ctx);
  // `verify_key`: keys that are not 12 characters are invalid without a call.
  if (client && key && key.length === 12) await client.verifyKey(key);
  return getAlert(ctx);
}

const keyArg = { description: 'A 12-character Akismet API key. Available at akismet.com/account', type: 'string', sanitize: trim } as const;
const flagArg = (description: string) => ({ type: 'boolean', description });

export const spamfilterRoutes = defineRoutes<AppContext>(SPAMFILTER_NS, [
  {
    path: '/key',
    endpoints: [
      { methods: READABLE, permission: privileged, handler: getKey },
      { methods: EDITABLE, args: { key: { ...keyArg, required: true } }, permission: privileged, handler: setKey },
      { methods: DELETABLE, permission: privileged, handler: deleteKey },
    ],
  },
  {
    path: '/settings',
    endpoints: [
      { methods: READABLE, permission: privileged, handler: (_r, ctx) => getSettings(ctx) },
      {
        methods: EDITABLE,
        args: {
          spamfilter_strictness: flagArg('If true, Akismet will automatically discard the worst spam automatically rather than putting it in the spam folder.'),
          spamfilter_show_user_comments_approved: flagArg('If true, show the number of approved comments beside each comment author in the comments list page.'),
          spamfilter_enable_mcp_access: flagArg('If true, allow MCP clients to access Akismet data and functionality.'),
        },
        permission: privileged,
        handler: setSettings,
      },
    ],
  },
  {
    path: '/stats',
    endpoints: [
      {
        methods: READABLE,
        args: {
          interval: {
            description: 'The time period for which to retrieve stats. Options: 60-days, 6-months, all',
            type: 'string',
            default: 'all',
            sanitize: (v) => normaliseInterval(v),
          },
        },
        permission: privileged,
        handler: (req, ctx) => stats(String(req.params.interval), ctx),
      },
    ],
  },
  {
    path: '/stats/{interval:(?:60-days|6-months|all)}',
    endpoints: [
      {
        methods: READABLE,
        args: { interval: { description: 'The time period for which to retrieve stats. Options: 60-days, 6-months, all', type: 'string' } },
        permission: privileged,
        handler: (req, ctx) => stats(String(req.urlParams.interval ?? req.params.interval), ctx),
      },
    ],
  },
  {
    path: '/alert',
    endpoints: [
      { methods: READABLE, args: { key: keyArg }, permission: keyHolder, handler: (_r, ctx) => getAlert(ctx) },
      { methods: EDITABLE, args: { key: keyArg }, permission: keyHolder, handler: refreshAlert },
      {
        methods: DELETABLE,
        args: { key: keyArg },
        permission: keyHolder,
        handler: async (_r, ctx) => {
          await clearAlert(ctx);
          return getAlert(ctx);
        },
      },
    ],
  },
  {
    path: '/webhook',
    endpoints: [{ methods: ['POST'], permission: keyHolder, handler: (req, ctx) => applyWebhook(ctx, req.params) }],
  },
]);
