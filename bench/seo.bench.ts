/**
 * SEO benchmark: `get_head` for an event page against a bare Node server answering the same bytes,
 * and the indexing throughput of `POST /seo/v1/indexing/posts` looped on `next_url` over 10,000
 * seeded events.
 */
import { basicAuth, measure, report, requestJson, startServer, type Check } from './lib.js';

const SEEDED = Number(process.env.BENCH_SEO_EVENTS ?? 10_000);

export async function run(): Promise<void> {
  const app = await startServer('app-server.ts', { BENCH_SEED_EVENTS: String(SEEDED) });
  const admin = /ADMIN (\S+)/.exec(app.output)?.[1] ?? '';
  const list = (await requestJson<{ events: { url: string }[] }>(`${app.url}/wp-json/eventsuite/events/v1/events`)).body;
  const headUrl = `${app.url}/wp-json/seo/v1/get_head?url=${encodeURIComponent(list.events[0]!.url)}`;
  const head = await requestJson<{ status: number }>(headUrl);
  if (head.body.status !== 200) throw new Error(`get_head answered ${head.body.status} for ${list.events[0]!.url}`);
  const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: headUrl });
  try {
    const baseline = await measure({ name: 'bare node http (bytes of the event head)', url: headUrl.replace(app.url, bare.url) });
    const rows = [await measure({ name: 'GET /seo/v1/get_head (an event page)', url: headUrl })];

    // Indexing: one client looping on next_url, as the original's admin screen does.
    const started = Date.now();
    let next: string | false = `${app.url}/wp-json/seo/v1/indexing/posts`;
    let indexed = 0;
    let calls = 0;
    while (next) {
      const res: { body: { objects: unknown[]; next_url: string | false } } = await requestJson(next.replace(/^https?:\/\/[^/]+/, app.url), { method: 'POST', headers: basicAuth(admin) });
      indexed += res.body.objects.length;
      calls++;
      next = res.body.next_url;
    }
    const seconds = (Date.now() - started) / 1000;
    const checks: Check[] = [
      { goal: `every seeded event indexed (${SEEDED})`, measured: `${indexed} indexables in ${calls} calls`, met: indexed >= SEEDED },
      { goal: 'indexing throughput (no goal set)', measured: `${Math.round(indexed / seconds)} posts/s (${seconds.toFixed(1)} s)`, met: true },
    ];
    report(`SEO: get_head and indexing on ${SEEDED} seeded events`, baseline, rows, {}, checks);
  } finally {
    await bare.stop();
    await app.stop();
  }
}
