/**
 * Migration 2026-11-29T0600: checks stored before it get their sender from their fields, as new
 * checks do, so earlier submissions count in each sender's approved count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, DIALECTS, type TestDb } from '../../storage/test-db.js';
import { down, up } from '../../storage/migrations/2026-11-29T0600-spamfilter-sender.js';
import { senderOf, type SpamCheckInput } from './checks.service.js';

describe.each(DIALECTS)('spamfilter sender migration on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => { t = await createTestDb(engine); });
  afterAll(() => t.destroy());

  it('fills the sender of every earlier check from its fields; unreadable or anonymous fields give none', async () => {
    await down(t.db);
    const inputs: SpamCheckInput[] = [
      { source: 'contact-form', ip: '10.0.0.1', author: 'Ida', email: 'IDA@mail.example', url: 'https://ida.example', content: 'hi' },
      { source: 'contact-form', ip: '10.0.0.2', content: 'no address' },
    ];
    const rows = [...inputs.map((i) => JSON.stringify(i)), 'not json'].map((fields, n) => ({ guid: `g${n}`, source: 'contact-form', verdict: 'ham', via: 'local', actual: null, fields, created_gmt: '2026-01-01 00:00:00' }));
    await t.db.insertInto('spamfilter_checks').values(rows).execute();
    await up(t.db);
    const stored = await t.db.selectFrom('spamfilter_checks').select(['guid', 'sender']).orderBy('guid').execute();
    expect(stored).toEqual([
      { guid: 'g0', sender: senderOf(inputs[0]!) },
      { guid: 'g1', sender: '' },
      { guid: 'g2', sender: '' },
    ]);
    expect(stored[0]!.sender).toMatch(/^[0-9a-f]{64}$/);
  });
});
