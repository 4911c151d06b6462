/**
 * @module namespaces/seo/ranktools/ranktool-b.routes
 * `ranktool-b/*` (the original's Wincher integration) at `REMOTE_RANKTOOL_B_URL`: authorize at
 * `/connect/authorize` (PKCE), tokens at `/connect/token`; API calls with the bearer token:
 * `GET /v1/account/limit` → `{data:{can_track, limit, usage, history_days}}` (`limit` null: unlimited),
 * `GET /v1/yoast/upgrade-campaign` → `{data:{discount, months}}`,
 * `POST /v1/websites/{id}/keywords/bulk` `[{keyword, groups}]` → `{data:[{id, keyword}]}`,
 * `POST /v1/yoast/{id}/keywords` `{keywords, url, start_at}` → `{data:[{keyword, …}]}`,
 * `DELETE /v1/websites/{id}/keywords/{keyword id}`.
 */
import type { AppContext } from '../../../app-context.js';
import { CoreErrors } from '../../../rest/errors.js';
import { OAuthClient, OAuthError, pkcePair } from '../../../remote/oauth2-client.js';
import { CREATABLE, DELETABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../../rest/route.js';
import { SEO_MESSAGES } from '../errors.js';
import { getSeoOption, META_KEYS, setSeoOption } from '../store.js';
import { accessToken, hasCode, tokenErrorBody } from './tokens.js';

const VERIFIER_KEY = 'wincher_code_verifier';

function baseOf(ctx: AppContext): string | undefined {
  return ctx.config.remotes.ranktool_b;
}

function clientOf(ctx: AppContext): OAuthClient | undefined {
  const base = baseOf(ctx);
  if (!base) return undefined;
  return new OAuthClient(
    { authorizeUrl: `${base}/connect/authorize`, tokenUrl: `${base}/connect/token`, clientId: 'eventsuite', redirectUri: `${ctx.urls.admin}admin.php?page=wpseo_integrations`, scope: 'profile account websites:read websites:write offline_access' },
    () => ctx.now(),
  );
}

const notConfigured = () => respond({ error: SEO_MESSAGES.notConfigured('RANKTOOL_B'), status: 400 }, { status: 400 });

/** Runs a remote action with a valid token; token and remote errors become the original's bodies. */
async function withToken(ctx: AppContext, action: (client: OAuthClient, token: string, base: string) => Promise<unknown>) {
  if ((await getSeoOption<boolean>(ctx, 'wincher_integration_active')) !== true) return CoreErrors.noRoute();
  const client = clientOf(ctx);
  if (!client) return notConfigured();
  try {
    return await action(client, await accessToken(ctx, 'wincher_tokens', client), baseOf(ctx)!);
  } catch (e) {
    const answer = tokenErrorBody(e);
    if (!answer) throw e;
    return respond({ status: answer.status, error: answer.body.error }, { status: answer.status });
  }
}

async function accountLimit(client: OAuthClient, token: string, base: string) {
  const { json } = await client.call('GET', `${base}/v1/account/limit`, token);
  const d = json?.data ?? {};
  // As the original: no limit means an unlimited account, which can always track.
  const limit = d.limit === null || d.limit === undefined ? null : Number(d.limit);
  return { canTrack: limit === null || Boolean(d.can_track), limit, usage: Number(d.usage ?? 0), historyDays: Number(d.history_days ?? 0) };
}

export async function authorizationUrl(_req: RestRequest, ctx: AppContext) {
  if ((await getSeoOption<boolean>(ctx, 'wincher_integration_active')) !== true) return CoreErrors.noRoute();
  const client = clientOf(ctx);
  if (!client) return notConfigured();
  const { verifier, challenge } = pkcePair();
  await setSeoOption(ctx, VERIFIER_KEY, verifier);
  return { status: 200, url: client.authorizationUrl({ code_challenge: challenge, code_challenge_method: 'S256' }) };
}

/**
 * Exchanges the code the ranking tool sent back (with the PKCE verifier of the authorization URL) and
 * stores the tokens and the website. Used by the route and by the integrations screen the tool
 * redirects the browser to.
 */
export async function connectRanktoolB(ctx: AppContext, client: OAuthClient, code: string, websiteId: string): Promise<{ tokens: unknown } | { error: string }> {
  try {
    const verifier = await getSeoOption<string>(ctx, VERIFIER_KEY);
    const tokens = await client.exchangeCode(code, verifier ? { code_verifier: verifier } : {});
    await setSeoOption(ctx, 'wincher_tokens', tokens);
    await setSeoOption(ctx, 'wincher_website_id', websiteId);
    return { tokens };
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    return { error: `${SEO_MESSAGES.authFailed}: ${e.message}` };
  }
}

/** The ranking tool's client, when the integration is on and its endpoint configured. */
export async function ranktoolBClient(ctx: AppContext): Promise<OAuthClient | undefined> {
  if ((await getSeoOption<boolean>(ctx, 'wincher_integration_active')) !== true) return undefined;
  return clientOf(ctx);
}

export async function authenticate(req: RestRequest, ctx: AppContext) {
  if ((await getSeoOption<boolean>(ctx, 'wincher_integration_active')) !== true) return CoreErrors.noRoute();
  const client = clientOf(ctx);
  if (!client) return notConfigured();
  const outcome = await connectRanktoolB(ctx, client, String(req.params.code), String(req.params.websiteId));
  if ('error' in outcome) return respond({ tokens: [], error: outcome.error, status: 401 }, { status: 401 });
  return { tokens: outcome.tokens, status: 200 };
}

function keyphraseList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return [...new Set(list.map((k) => String(k ?? '').trim().toLowerCase()).filter((k) => k !== ''))];
}

export async function trackKeyphrases(req: RestRequest, ctx: AppContext) {
  return withToken(ctx, async (client, token, base) => {
    const keyphrases = keyphraseList(req.params.keyphrases);
    const limits = await accountLimit(client, token, base);
    if (!limits.canTrack || (limits.limit !== null && limits.usage + keyphrases.length > limits.limit)) {
      return respond({ limit: limits.limit, error: SEO_MESSAGES.limitExceeded, status: 400 }, { status: 400 });
    }
    const website = await getSeoOption<string>(ctx, 'wincher_website_id');
    const { json } = await client.call('POST', `${base}/v1/websites/${encodeURIComponent(website)}/keywords/bulk`, token, keyphrases.map((keyword) => ({ keyword, groups: [] })));
    const results: Record<string, unknown> = {};
    for (const item of Array.isArray(json?.data) ? json.data : []) if (item && typeof item.keyword === 'string') results[item.keyword] = item;
    return { results, status: 200 };
  });
}

/** Every focus keyphrase of the site. */
async function siteKeyphrases(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db.selectFrom('seo_post_meta').select('meta_value').where('meta_key', '=', META_KEYS.focusKeyphrase).where('meta_value', '<>', '').distinct().execute();
  return rows.map((r) => r.meta_value);
}

export async function getKeyphrases(req: RestRequest, ctx: AppContext) {
  return withToken(ctx, async (client, token, base) => {
    const asked = keyphraseList(req.params.keyphrases);
    const keyphrases = asked.length ? asked : keyphraseList(await siteKeyphrases(ctx));
    // An empty PHP array would encode as []; the original sends an object.
    if (keyphrases.length === 0) return { results: {}, status: 200 };
    const website = await getSeoOption<string>(ctx, 'wincher_website_id');
    const { json } = await client.call('POST', `${base}/v1/yoast/${encodeURIComponent(website)}/keywords`, token, {
      keywords: keyphrases,
      ...(typeof req.params.permalink === 'string' && req.params.permalink ? { url: req.params.permalink } : {}),
      ...(typeof req.params.startAt === 'string' && req.params.startAt ? { start_at: req.params.startAt } : {}),
    });
    // As the original, only the keyphrases asked about are answered, whatever else the tool sends.
    const wanted = new Set(keyphrases);
    const results: Record<string, unknown> = {};
    for (const item of Array.isArray(json?.data) ? json.data : []) {
      if (item && typeof item.keyword === 'string' && wanted.has(item.keyword.toLowerCase())) results[item.keyword] = item;
    }
    return { results, status: 200 };
  });
}

export async function untrackKeyphrase(req: RestRequest, ctx: AppContext) {
  return withToken(ctx, async (client, token, base) => {
    const id = String(req.params.keyphraseID ?? '');
    if (!/^\d+$/.test(id)) return respond({ status: 400, error: 'Invalid keyphraseID.' }, { status: 400 });
    const website = await getSeoOption<string>(ctx, 'wincher_website_id');
    await client.call('DELETE', `${base}/v1/websites/${encodeURIComponent(website)}/keywords/${id}`, token);
    return { status: 200 };
  });
}

export async function getAccountLimit(_req: RestRequest, ctx: AppContext) {
  return withToken(ctx, async (client, token, base) => ({ ...(await accountLimit(client, token, base)), status: 200 }));
}

export async function getUpgradeCampaign(_req: RestRequest, ctx: AppContext) {
  return withToken(ctx, async (client, token, base) => {
    const { json } = await client.call('GET', `${base}/v1/yoast/upgrade-campaign`, token);
    const d = json?.data;
    // As the original: a campaign needs a discount and at least one month, else there is none.
    const valid = typeof d?.discount === 'number' && typeof d?.months === 'number' && d.months > 0;
    return { discount: valid ? d.discount : null, months: valid ? d.months : null, status: 200 };
  });
}

const canUse = (req: RestRequest) => Boolean(req.user && (req.user.can('publish_posts') || req.user.can('publish_pages')));

export const ranktoolBRouteDefs: RouteDef<AppContext>[] = [
  { path: '/ranktool-b/authorization-url', endpoints: [{ methods: READABLE, permission: canUse, handler: authorizationUrl }] },
  {
    path: '/ranktool-b/authenticate',
    endpoints: [{
      methods: CREATABLE,
      args: { code: { required: true, validate: hasCode }, websiteId: { required: true, validate: (v) => (typeof v === 'number' && Number.isInteger(v)) || 'must be an integer.' } },
      permission: canUse,
      handler: authenticate,
    }],
  },
  {
    path: '/ranktool-b/keyphrases/track',
    endpoints: [{
      methods: CREATABLE,
      args: { keyphrases: { required: true, validate: (v) => keyphraseList(v).length > 0 || 'must be a keyphrase or a list of them.' } },
      permission: canUse,
      handler: trackKeyphrases,
    }],
  },
  {
    path: '/ranktool-b/keyphrases',
    endpoints: [{
      methods: CREATABLE,
      args: { keyphrases: { required: false }, permalink: { required: false }, startAt: { required: false } },
      permission: canUse,
      handler: getKeyphrases,
    }],
  },
  { path: '/ranktool-b/keyphrases/untrack', endpoints: [{ methods: DELETABLE, permission: canUse, handler: untrackKeyphrase }] },
  { path: '/ranktool-b/account/limit', endpoints: [{ methods: READABLE, permission: canUse, handler: getAccountLimit }] },
  { path: '/ranktool-b/account/upgrade-campaign', endpoints: [{ methods: READABLE, permission: canUse, handler: getUpgradeCampaign }] },
];
