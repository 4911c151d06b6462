import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { addTicket, makePost, buyPaidOffline } from '../tickets/fixtures.case.js';
import { IMPORT_MESSAGES, runImport, startImport, type ImportPayload } from './import.service.js';

const NS = '/shop-analytics';

describe.each(DIALECTS)('shop-analytics reports/import on %s', (engine) => {
  let t: TestApp;
  let customer: TestUser;
  let clock = new Date('2026-06-01T12:00:00Z');

  const wait = async () => {
    await t.ctx.jobs.runDue();
    for (let i = 0; i < 200; i++) {
      const s = await t.request('GET', `${NS}/reports/import/status`, { as: t.admin });
      if (!s.body.is_importing) return s.body;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('import did not finish');
  };
  const customers = async () => (await t.request('GET', `${NS}/customers`, { query: { per_page: 100, orderby: 'total_spend' }, as: t.admin })).body;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => clock });
    customer = await t.createUser('customer');
    clock = new Date('2026-01-01T12:00:00Z');
    const event = await makePost(t);
    const seat = await addTicket(t, event, { price: '15', ticket: { mode: 'own', capacity: 100 } });
    const buy = async (email: string, quantity: number) => {
      const res = await buyPaidOffline(t, { tickets: [{ ticket_id: seat.id, quantity }], purchaser_name: email, purchaser_email: email });
      if (res.status !== 201) throw new Error(res.text);
    };
    clock = new Date('2026-01-10T12:00:00Z');
    await buy('old@example.test', 1);
    clock = new Date('2026-05-30T12:00:00Z');
    await buy('new@example.test', 2);
    await buy('new@example.test', 1);
    clock = new Date('2026-06-01T12:00:00Z');
  });
  afterAll(() => t.close());

  it('deletes the report data, counts what an import would take, and rebuilds it in the background', async () => {
    const before = await customers();
    expect(before).toHaveLength(2);
    const del = await t.request('POST', `${NS}/reports/import/delete`, { as: t.admin });
    expect(del.body).toEqual({ status: 'success', message: IMPORT_MESSAGES.deleted });
    expect(await customers()).toEqual([]);
    expect((await t.request('GET', `${NS}/reports/import/totals`, { as: t.admin })).body).toEqual({ customers: 2, orders: 3 });
    expect((await t.request('GET', `${NS}/reports/import/totals`, { query: { days: 5 }, as: t.admin })).body).toEqual({ customers: 1, orders: 2 });
    const res = await t.request('POST', `${NS}/reports/import`, { json: { skip_existing: 'false' }, as: t.admin });
    expect(res.body).toEqual({ status: 'success', message: IMPORT_MESSAGES.scheduled });
    const done = await wait();
    expect(done).toEqual({ is_importing: false, customers: { imported: 2, total: 2 }, orders: { imported: 3, total: 3 }, imported_from: 'beginning' });
    const strip = (list: any[]) => list.map(({ id: _id, ...rest }) => rest);
    expect(strip(await customers())).toEqual(strip(before)); // same numbers, new lookup ids
  });

  it('imports only the last `days` days, and skip_existing leaves rows already there', async () => {
    await t.request('POST', `${NS}/reports/import/delete`, { as: t.admin });
    await t.request('PUT', `${NS}/reports/import`, { query: { days: '5' }, as: t.admin });
    const done = await wait();
    expect(done.imported_from).toBe('2026-05-27 00:00:00');
    expect((await customers()).map((c: any) => c.email)).toEqual(['new@example.test']);
    // skip_existing counts (and imports) only what is missing: the old order and its customer.
    expect((await t.request('GET', `${NS}/reports/import/totals`, { query: { skip_existing: 1 }, as: t.admin })).body).toEqual({ customers: 1, orders: 1 });
    await t.request('PATCH', `${NS}/reports/import`, { form: { skip_existing: 'true' }, as: t.admin });
    expect(await wait()).toMatchObject({ orders: { imported: 1, total: 1 }, customers: { imported: 1, total: 1 } });
    expect((await customers()).map((c: any) => c.email)).toEqual(['new@example.test', 'old@example.test']);
    expect((await t.request('GET', `${NS}/reports/import/totals`, { query: { skip_existing: 1 }, as: t.admin })).body).toEqual({ customers: 0, orders: 0 });
  });

  it('refuses a second run while one is going, and cancel stops it before it writes', async () => {
    let scheduled: ImportPayload | undefined;
    expect(await startImport(t.ctx, null, false, async (_ctx, p) => void (scheduled = p))).toBeUndefined();
    expect((await t.request('POST', `${NS}/reports/import`, { as: t.admin })).body).toEqual({ status: 'error', message: IMPORT_MESSAGES.inProgress });
    expect((await t.request('GET', `${NS}/reports/import/status`, { as: t.admin })).body.is_importing).toBe(true);
    expect((await t.request('POST', `${NS}/reports/import/cancel`, { as: t.admin })).body).toEqual({ status: 'success', message: IMPORT_MESSAGES.cancelled });
    await t.request('POST', `${NS}/reports/import/delete`, { as: t.admin });
    await runImport(t.ctx, scheduled); // the job arrives after the cancel: it does nothing
    expect(await customers()).toEqual([]);
  });

  it('checks days (integer ≥ 0) and skip_existing (boolean), and needs manage_woocommerce', async () => {
    expect((await t.request('POST', `${NS}/reports/import`, { json: { days: -1 }, as: t.admin })).body.code).toBe('rest_invalid_param');
    expect((await t.request('POST', `${NS}/reports/import`, { json: { skip_existing: 'maybe' }, as: t.admin })).status).toBe(400);
    const anon = await t.request('POST', `${NS}/reports/import`, {});
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('woocommerce_rest_cannot_edit');
    for (const [m, p] of [['POST', '/reports/import'], ['POST', '/reports/import/cancel'], ['POST', '/reports/import/delete'], ['GET', '/reports/import/status'], ['GET', '/reports/import/totals']] as const) {
      const res = await t.request(m, `${NS}${p}`, { as: customer });
      expect(res.status, p).toBe(403);
      expect(res.body.code).toBe('woocommerce_rest_cannot_edit');
    }
  });
});
