import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { getRecord, insertRecord, newBatchHash } from './records.repo.js';

const NS = '/eventsuite/event-aggregator/v1';

function serviceEvent(n: number, extra: Record<string, unknown> = {}) {
  return {
    global_id: `ical.example.net?uid=ev-${n}`, title: `Choir night ${n}`, description: '<p>Sing</p>', start_date: '2026-06-01',
    start_hour: '7', start_minute: '00', start_meridian: 'PM', end_date: '2026-06-01', end_hour: '9', end_minute: '30', end_meridian: 'PM',
    timezone: 'Europe/London', url: `https://ical.example.net/e/${n}`, all_day: false,
    venue: { venue: 'St Mary', city: 'Leeds', address: '1 Church St' }, organizer: [{ organizer: 'Choir', email: 'choir@example.net' }],
    categories: ['Music'], tags: ['singing', 'free'], cost: '5', currency_symbol: '£', ...extra,
  };
}

const status = (batchDone: number, batchTotal: number, done = 3, total = 9) => ({ data: { total, done }, batch: { total: batchTotal, done: batchDone, per_batch: 3 } });

describe.each(DIALECTS)('event import routes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  async function pending() {
    const hash = newBatchHash();
    const record = await insertRecord(t.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: hash }, new Date());
    return { id: record.id, hash };
  }

  it('lists the namespace and both routes with the original args', async () => {
    const res = await t.request('GET', NS);
    expect(res.status).toBe(200);
    const batch = res.body.routes[`${NS}/import/(?P<import_id>\\w+)/batch`];
    expect(Object.keys(batch.endpoints[0].args)).toEqual(['import_id', 'batch_hash', 'status', 'percentage_complete', 'interval']);
    const state = res.body.routes[`${NS}/import/(?P<import_id>\\w+)/state`];
    expect(state.endpoints[0].args.status.enum).toEqual(['success', 'failed', 'pending']);
  });

  it('creates events with venue, organizer, terms and cost; chains the hash; replays are refused; the last batch closes the record', async () => {
    const { id, hash } = await pending();
    const first = await t.request('POST', `${NS}/import/${id}/batch`, {
      json: { batch_hash: hash, status: status(0, 2), percentage_complete: 50, interval: 999, events: [serviceEvent(1), serviceEvent(2)] },
    });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('success');
    expect(first.body.interval).toBe(10);
    expect(first.body.next_batch_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(first.body.next_batch_hash).not.toBe(hash);
    expect(Object.keys(first.body.activity)).toEqual(['tribe_events', 'tribe_venue', 'tribe_organizer', 'tribe_events_cat', 'post_tag', 'attachment']);
    const [e1, e2] = first.body.activity.tribe_events.created;
    expect(first.body.activity.tribe_events).toEqual({ created: [e1, e2], updated: [], skipped: [], scheduled: [] });
    expect(first.body.activity.tribe_venue.created).toHaveLength(1);
    expect(first.body.activity.tribe_organizer.created).toHaveLength(1);
    expect(first.body.activity.tribe_events_cat.created).toHaveLength(1);
    expect(first.body.activity.post_tag.created).toHaveLength(2);

    const ev = await t.request('GET', `/eventsuite/events/v1/events/${e1}`);
    expect(ev.body).toMatchObject({
      title: 'Choir night 1', start_date: '2026-06-01 19:00:00', end_date: '2026-06-01 21:30:00', timezone: 'Europe/London', cost: '£5',
      website: 'https://ical.example.net/e/1', venue: { venue: 'St Mary', city: 'Leeds' }, organizer: [{ organizer: 'Choir', email: 'choir@example.net' }],
    });
    expect(ev.body.categories.map((c: { name: string }) => c.name)).toEqual(['Music']);
    expect(ev.body.tags.map((c: { name: string }) => c.name).sort()).toEqual(['free', 'singing']);

    // The old hash is spent.
    const replay = await t.request('POST', `${NS}/import/${id}/batch`, { json: { batch_hash: hash, status: status(0, 2), percentage_complete: 50, events: [serviceEvent(1)] } });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { batch_hash: 'Invalid parameter.' } } });

    // A duplicated batch under the new hash changes nothing; the last batch closes the record.
    const last = await t.request('POST', `${NS}/import/${id}/batch`, {
      json: { batch_hash: first.body.next_batch_hash, status: status(1, 2, 9, 9), percentage_complete: 100, events: [serviceEvent(1), serviceEvent(2)] },
    });
    expect(last.status).toBe(200);
    expect(last.body.next_batch_hash).toBeUndefined();
    expect(last.body.activity.tribe_events).toEqual({ created: [], updated: [], skipped: [e1, e2], scheduled: [] });
    expect(last.body.activity.tribe_venue.created).toEqual([]);
    const record = await getRecord(t.db, id);
    expect(record).toMatchObject({ status: 'success', nextBatchHash: null, percentageComplete: 100, totalEvents: 9 });
    expect(record!.activity.tribe_events.created).toEqual([e1, e2]);
    const count = await t.request('GET', '/eventsuite/events/v1/events', { query: { search: 'Choir night', start_date: '2026-01-01' } });
    expect(count.body.total).toBe(2);

    // A closed record accepts nothing.
    const closed = await t.request('POST', `${NS}/import/${id}/batch`, { json: { batch_hash: first.body.next_batch_hash, status: status(1, 2), percentage_complete: 100 } });
    expect(closed.status).toBe(400);
    expect(Object.keys(closed.body.data.params)).toEqual(['import_id', 'batch_hash']);
  });

  it('updates only what changed upstream', async () => {
    const { id, hash } = await pending();
    const a = await t.request('POST', `${NS}/import/${id}/batch`, { json: { batch_hash: hash, status: status(0, 2), percentage_complete: 10, events: [serviceEvent(7)] } });
    const evId = a.body.activity.tribe_events.created[0];
    const b = await t.request('POST', `${NS}/import/${id}/batch`, {
      json: { batch_hash: a.body.next_batch_hash, status: status(1, 2), percentage_complete: 100, events: [serviceEvent(7, { title: 'Choir night (moved)', start_hour: '8', end_hour: '10' })] },
    });
    expect(b.body.activity.tribe_events.updated).toEqual([evId]);
    const ev = await t.request('GET', `/eventsuite/events/v1/events/${evId}`);
    expect(ev.body).toMatchObject({ title: 'Choir night (moved)', start_date: '2026-06-01 20:00:00' });
  });

  it('checks types first, then every validator in order', async () => {
    const { id, hash } = await pending();
    const missing = await t.request('POST', `${NS}/import/${id}/batch`, { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['batch_hash', 'status', 'percentage_complete'] } });

    const typed = await t.request('POST', `${NS}/import/nope/batch`, { json: { batch_hash: hash, status: 'done', percentage_complete: 'x' } });
    expect(typed.status).toBe(400);
    expect(Object.keys(typed.body.data.params)).toEqual(['status', 'percentage_complete']);

    const badInterval = await t.request('POST', `${NS}/import/nope/batch`, { json: { batch_hash: hash, status: status(0, 1), percentage_complete: 1, interval: 5.5 } });
    expect(badInterval.body.data.params).toEqual({ interval: 'interval is not of type integer.' });

    const bad = await t.request('POST', `${NS}/import/nope/batch`, {
      json: { batch_hash: hash, status: { data: { total: 1, done: 2 }, batch: { total: 1, done: 0 } }, percentage_complete: 101, interval: '30' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_param', message: 'Invalid parameter(s): import_id, batch_hash, status, percentage_complete', data: { details: [] } });
    expect(bad.body.data.params).toEqual({ import_id: 'Invalid parameter.', batch_hash: 'Invalid parameter.', status: 'Invalid parameter.', percentage_complete: 'Invalid parameter.' });

    // The right record with a wrong hash: only the hash.
    const wrongHash = await t.request('POST', `${NS}/import/${id}/batch`, { json: { batch_hash: newBatchHash(), status: status(0, 1), percentage_complete: 1 } });
    expect(Object.keys(wrongHash.body.data.params)).toEqual(['batch_hash']);

    // Nothing was written for a refused batch.
    expect((await getRecord(t.db, id))!.nextBatchHash).toBe(hash);
  });

  it('state: sets the status, keeps the hash while pending, spends it otherwise; other statuses are 400', async () => {
    const { id, hash } = await pending();
    const wrong = await t.request('POST', `${NS}/import/${id}/state`, { json: { batch_hash: hash, status: 'draft', message: 'm', message_slug: 's', percentage_complete: 1 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.params.status).toBe('status is not one of success, failed, and pending.');

    const still = await t.request('POST', `${NS}/import/${id}/state`, { json: { batch_hash: hash, status: 'pending', message: 'working', message_slug: 'working', percentage_complete: 40 } });
    expect(still.status).toBe(200);
    expect(still.body).toEqual({ status: 'success' });
    expect(await getRecord(t.db, id)).toMatchObject({ status: 'pending', nextBatchHash: hash, percentageComplete: 40 });

    const failed = await t.request('POST', `${NS}/import/${id}/state`, { json: { batch_hash: hash, status: 'failed', message: 'Feed gone', message_slug: 'error:feed-gone', percentage_complete: 40 } });
    expect(failed.status).toBe(200);
    expect(await getRecord(t.db, id)).toMatchObject({ status: 'failed', nextBatchHash: null, message: 'Feed gone', messageSlug: 'error:feed-gone' });

    const again = await t.request('POST', `${NS}/import/${id}/state`, { json: { batch_hash: hash, status: 'success', message: '', message_slug: '', percentage_complete: 100 } });
    expect(again.status).toBe(400);
    expect(Object.keys(again.body.data.params)).toEqual(['import_id', 'batch_hash']);
  });

  it('a wrong hash never passes, also without credentials or with a guessed id', async () => {
    const { id } = await pending();
    for (const batch_hash of ['', 'x', newBatchHash()]) {
      const res = await t.request('POST', `${NS}/import/${id}/state`, { json: { batch_hash, status: 'success', message: '', message_slug: '', percentage_complete: 100 } });
      expect(res.status).toBe(400);
    }
    expect((await getRecord(t.db, id))!.status).toBe('pending');
  });

  it('takes a large batch (500 items) and reports bad items without failing the batch', async () => {
    const { id, hash } = await pending();
    const events = Array.from({ length: 500 }, (_, i) => serviceEvent(1000 + i, { venue: null, organizer: [], categories: [], tags: [] }));
    events.push({ title: 'no id' } as never);
    const res = await t.request('POST', `${NS}/import/${id}/batch`, { json: { batch_hash: hash, status: status(0, 1, 501, 501), percentage_complete: 100, events } });
    expect(res.status).toBe(200);
    expect(res.body.activity.tribe_events.created).toHaveLength(500);
    expect((await getRecord(t.db, id))!.message).toContain('no global_id');
  }, 120_000);
});
