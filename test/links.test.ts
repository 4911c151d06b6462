/**
 * Every link the API hands out opens something real. The crawl starts from every GET route of the
 * discovery document (path parameters filled with the seeded site's IDs) and a few writes that answer
 * with links (an order, the homepage task), follows every URL of this site found in JSON bodies and
 * HTML pages, and expects each to answer below 400: as the administrator (Basic credentials for the
 * API, a sign-in cookie for admin pages), and as a visitor (what a visitor is shown opens for them; admin
 * pages send them to sign in).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForTest } from '../src/auth/test-sessions.js';
import { seedFuzzSite, type FuzzSite } from '../src/test-support/fuzz-site.js';
import { startTestApp, type TestApp } from '../src/test-support/harness.js';

const MAX_URLS = 1500;
/** Query variants followed per path (list pages link to their next pages, and so on). */
const MAX_PER_PATH = 4;

describe('links', () => {
  let t: TestApp;
  let site: FuzzSite;
  let cookie: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    site = await seedFuzzSite(t);
    cookie = (await signInForTest(t.ctx, t.admin.id)).cookie;
  });
  afterAll(() => t.close());

  async function crawl(signedIn: boolean): Promise<{ visited: number; broken: string[] }> {
    const home = t.ctx.urls.home;
    const apiRoot = t.ctx.urls.apiRoot;
    const discovery = (await t.request('GET', '/', signedIn ? { as: t.admin } : {})).body as { routes: Record<string, { methods: string[] }> };

    // Links to routes a GET does not reach (the discovery document links every route).
    const notGettable = new Set<string>();
    const seeds: string[] = [];
    for (const [route, def] of Object.entries(discovery.routes)) {
      const concrete = route.replace(/\(\?P<([^>]+)>(?:[^()]|\((?:[^()])*\))+\)/g, (_m, name: string, offset: number) => {
        const before = route.slice(0, offset).split('/').filter((x) => x && x !== 'by-slug').pop() ?? '';
        const values = site.pool[name === 'id' || name === 'slug' ? `${before}:${name}` : name] ?? site.pool[`${before}:id`] ?? [];
        return values.length ? encodeURIComponent(String(values[0])) : '\u0000';
      });
      const url = `${apiRoot}${concrete.replace(/^\//, '')}`;
      if (!def.methods.includes('GET')) notGettable.add(url);
      else if (!concrete.includes('\u0000')) seeds.push(url);
    }

    const found = new Map<string, string>();
    const queue: string[] = [];
    const perPath = new Map<string, number>();
    const offer = (raw: string, from: string) => {
      const url = raw.replace(/&amp;|&#038;|&#38;/g, '&');
      if (found.has(url) || url.includes('{') || url.includes('(?P<') || notGettable.has(url.replace(/\/$/, ''))) return;
      const path = url.split('?')[0]!;
      const n = perPath.get(path) ?? 0;
      if (n >= MAX_PER_PATH) return;
      perPath.set(path, n + 1);
      found.set(url, from);
      queue.push(url);
    };
    const HOME_URL = new RegExp(`${home.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^\\s"'<>)\\\\]*`, 'g');
    const collect = (value: unknown, from: string): void => {
      if (typeof value === 'string') for (const m of value.matchAll(HOME_URL)) offer(m[0], from);
      else if (Array.isArray(value)) for (const v of value) collect(v, from);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v, from);
    };
    for (const s of seeds) offer(s, 'discovery');

    if (signedIn) {
      // Answers that carry links but are not reached by GETs without parameters.
      const homepage = await t.request('POST', '/shop-admin/onboarding/tasks/create_homepage', { as: t.admin });
      collect(homepage.body, 'POST create_homepage');
      collect((await t.request('GET', `/eventsuite/tickets/v1/orders/${site.orderId}`, { as: t.admin })).body, 'GET order');
    }

    const broken: string[] = [];
    let visited = 0;
    while (queue.length > 0 && visited < MAX_URLS) {
      const url = queue.shift()!;
      visited++;
      const target = new URL(url);
      const admin = target.pathname.startsWith(`${t.ctx.config.adminPath}/`);
      const res = await t.app.inject({
        method: 'GET',
        url: target.pathname + target.search,
        headers: !signedIn ? {} : admin ? { cookie } : { authorization: t.admin.authorization },
      });
      const from = found.get(url)!;
      // HEAD answers every page as GET does, without the body (the API's HEAD is the REST host's own).
      if (!target.pathname.startsWith('/wp-json')) {
        const head = await t.app.inject({ method: 'HEAD', url: target.pathname + target.search, headers: !signedIn ? {} : admin ? { cookie } : { authorization: t.admin.authorization } });
        if (head.statusCode !== res.statusCode || head.body !== '') broken.push(`HEAD ${head.statusCode} (GET ${res.statusCode}) ${url}: ${head.body.slice(0, 80)}`);
      }
      // The seeds themselves may need parameters the crawl does not invent (400 for a missing one) or
      // a service this site has not configured (503); they must not crash.
      if (res.statusCode === 500 || (res.statusCode >= 400 && from !== 'discovery')) broken.push(`${res.statusCode} ${url} (linked from ${from}): ${res.body.slice(0, 160)}`);
      const type = String(res.headers['content-type'] ?? '');
      if (type.includes('json')) {
        try {
          collect(JSON.parse(res.body), url);
        } catch {
          // not JSON after all
        }
      } else if (type.includes('html')) {
        collect(res.body, url);
      }
    }
    return { visited, broken };
  }

  it('every URL of this site in an answer to the administrator opens for them', async () => {
    const { visited, broken } = await crawl(true);
    expect(visited).toBeGreaterThan(300);
    expect(broken).toEqual([]);
  }, 300_000);

  it('every URL of this site in an answer to a visitor opens for them', async () => {
    const { visited, broken } = await crawl(false);
    expect(visited).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  }, 300_000);
});
