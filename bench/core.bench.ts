/**
 * Foundation benchmark: discovery document, a namespace index and a 25-request batch, against a bare
 * Node `http` server answering the same bytes. Goal: discovery at 70% or more of the bare server.
 */
import { measure, report, startServer } from './lib.js';

export async function run(): Promise<void> {
  const app = await startServer('app-server.ts');
  const admin = /ADMIN (\S+)/.exec(app.output)?.[1] ?? '';
  const auth = { authorization: `Basic ${Buffer.from(admin).toString('base64')}`, 'content-type': 'application/json' };
  const discoveryUrl = `${app.url}/wp-json/`;
  const indexUrl = `${app.url}/wp-json/eventsuite/events/v1`;
  const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: [discoveryUrl, indexUrl].join(',') });
  try {
    // A batch of 25 creates (events are batchable): each item validated, authorised and written.
    const start = '2030-01-01 10:00:00';
    const batch = JSON.stringify({
      requests: Array.from({ length: 25 }, (_, i) => ({
        method: 'POST',
        path: '/eventsuite/events/v1/events',
        body: { title: `Bench ${i}`, start_date: start, end_date: '2030-01-01 12:00:00' },
      })),
    });
    const baseline = await measure({ name: 'bare node http (discovery bytes)', url: `${bare.url}/wp-json/` });
    const rows = [
      await measure({ name: 'GET /wp-json/ (discovery)', url: discoveryUrl }),
      await measure({ name: 'GET /wp-json/eventsuite/events/v1', url: indexUrl }),
      await measure({ name: 'POST /wp-json/batch/v1 (25 creates)', url: `${app.url}/wp-json/batch/v1`, method: 'POST', body: batch, headers: auth, connections: 4 }),
    ];
    report('Foundation: discovery, namespace index, batch', baseline, rows, { 'GET /wp-json/ (discovery)': 0.7 });
  } finally {
    await bare.stop();
    await app.stop();
  }
}
