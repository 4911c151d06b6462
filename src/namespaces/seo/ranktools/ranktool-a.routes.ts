/**
 * @module namespaces/seo/ranktools/ranktool-a.routes
 * `ranktool-a/*` (the original's SEMrush integration) at `REMOTE_RANKTOOL_A_URL`:
 * authorize at `/oauth2/authorize`, tokens at `/oauth2/access_token`, related keyphrases at
 * `GET /api/v1/keywords/phrase_fullsearch?phrase=&database=&export_columns=Ph,Nq,Td,In,Kd&…`
 * (bearer token) answering `{columnNames, rows}` (or that object under `data`).
 */
import type { AppContext } from '../../../app-context.js';
import { CoreErrors } from '../../../rest/errors.js';
import { OAuthClient, OAuthError } from '../../../remote/oauth2-client.js';
import { CREATABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../../rest/route.js';
import { SEO_MESSAGES } from '../errors.js';
import { cacheGet, cacheSet, getSeoOption, setSeoOption } from '../store.js';
import { accessToken, hasCode, tokenErrorBody } from './tokens.js';

const DAY_S = 86_400;
const EXPORT_COLUMNS = 'Ph,Nq,Td,In,Kd';

function clientOf(ctx: AppContext): OAuthClient | undefined {
  const base = ctx.config.remotes.ranktool_a;
  if (!base) return undefined;
  return new OAuthClient(
    { authorizeUrl: `${base}/oauth2/authorize`, tokenUrl: `${base}/oauth2/access_token`, clientId: 'eventsuite', redirectUri: `${base}/oauth2/eventsuite/success` },
    () => ctx.now(),
  );
}

const notConfigured = () => respond({ error: SEO_MESSAGES.notConfigured('RANKTOOL_A'), status: 400 }, { status: 400 });

/** Routes exist only while the integration is active. */
async function active(ctx: AppContext): Promise<boolean> {
  return (await getSeoOption<boolean>(ctx, 'semrush_integration_active')) === true;
}

export async function authenticate(req: RestRequest, ctx: AppContext) {
  if (!(await active(ctx))) return CoreErrors.noRoute();
  const client = clientOf(ctx);
  if (!client) return notConfigured();
  try {
    const tokens = await client.exchangeCode(String(req.params.code));
    await setSeoOption(ctx, 'semrush_tokens', tokens);
    return { tokens, status: 200 };
  } catch (e) {
    const reason = e instanceof OAuthError ? e.message : String(e);
    return respond({ tokens: [], error: `${SEO_MESSAGES.authFailed}: ${reason}`, status: 401 }, { status: 401 });
  }
}

export async function setCountryCode(req: RestRequest, ctx: AppContext) {
  if (!(await active(ctx))) return CoreErrors.noRoute();
  await setSeoOption(ctx, 'semrush_country_code', String(req.params.country_code));
  return { success: true, status: 200 };
}

export async function relatedKeyphrases(req: RestRequest, ctx: AppContext) {
  if (!(await active(ctx))) return CoreErrors.noRoute();
  const client = clientOf(ctx);
  if (!client) return notConfigured();
  const keyphrase = String(req.params.keyphrase).trim();
  const database = String(req.params.country_code);
  // Both parts are free text now: encoded apart, so no country and phrase can name another's entry.
  const cacheKey = `semrush:${JSON.stringify([database, keyphrase.toLowerCase()])}`;
  const cached = await cacheGet(ctx, cacheKey);
  if (cached) return { results: cached, status: 200 };
  try {
    const token = await accessToken(ctx, 'semrush_tokens', client);
    const base = ctx.config.remotes.ranktool_a!;
    const query = new URLSearchParams({ phrase: keyphrase, database, export_columns: EXPORT_COLUMNS, display_limit: '10', display_offset: '0', display_sort: 'nq_desc', display_filter: '%2B|Nq|Lt|1000' });
    const { json } = await client.call('GET', `${base}/api/v1/keywords/phrase_fullsearch?${query.toString()}`, token);
    const results = json?.data && typeof json.data === 'object' ? json.data : json;
    await cacheSet(ctx, cacheKey, results, DAY_S);
    return { results, status: 200 };
  } catch (e) {
    const answer = tokenErrorBody(e);
    if (!answer) throw e;
    return respond(answer.body, { status: answer.status });
  }
}

const canUse = (req: RestRequest) => Boolean(req.user && (req.user.can('edit_posts') || req.user.can('edit_pages')));
const nonEmpty = (v: unknown) => (typeof v === 'string' && v.trim() !== '') || 'must be a non-empty string.';

export const ranktoolARouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/ranktool-a/authenticate',
    endpoints: [{ methods: CREATABLE, args: { code: { required: true, validate: hasCode } }, permission: canUse, handler: authenticate }],
  },
  {
    path: '/ranktool-a/country_code',
    endpoints: [{
      methods: CREATABLE,
      args: { country_code: { required: true, validate: (v) => (typeof v === 'string' && /^[a-z]{2}$/.test(v)) || 'must be two lower-case letters.' } },
      permission: canUse,
      handler: setCountryCode,
    }],
  },
  {
    path: '/ranktool-a/related_keyphrases',
    endpoints: [{
      methods: READABLE,
      args: {
        keyphrase: { required: true, validate: nonEmpty },
        // CASE: unlike POST country_code, the original checks only that a database is named.
        country_code: { required: true, validate: (v) => typeof v === 'string' || 'must be a string.' },
      },
      permission: canUse,
      handler: relatedKeyphrases,
    }],
  },
];
