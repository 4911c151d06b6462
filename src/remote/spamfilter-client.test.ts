import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSpamService, type FakeSpamService } from '../namespaces/spamfilter/fake-service.case.js';
import { freePort } from '../test-support/net.js';
import { createSpamfilterClient, SpamfilterRemoteError } from './spamfilter-client.js';

describe('spam filter client (Akismet protocol)', () => {
  let fake: FakeSpamService;
  beforeAll(async () => { fake = await startFakeSpamService(); });
  afterAll(() => fake.close());

  it('verifies keys with key and blog; only the literal valid passes', async () => {
    const client = createSpamfilterClient({ endpoint: fake.url, blog: 'http://site.test' });
    expect(await client.verifyKey('abcdefabcdef')).toBe(true);
    expect(await client.verifyKey('nope')).toBe(false);
    expect(fake.calls.at(-1)).toEqual({ path: '/1.1/verify-key', body: { key: 'nope', blog: 'http://site.test' } });
  });

  it('checks comments: verdict, discard tip and guid; an invalid key is an error', async () => {
    const client = createSpamfilterClient({ endpoint: fake.url, blog: 'http://site.test' });
    expect(await client.commentCheck('abcdefabcdef', { comment_content: 'hello', user_ip: '1.2.3.4' })).toMatchObject({ spam: false, discard: false });
    const v = await client.commentCheck('abcdefabcdef', { comment_content: 'cheap viagra casino', user_ip: '1.2.3.4' });
    expect(v.spam).toBe(true);
    expect(v.discard).toBe(true);
    expect(v.guid).toMatch(/^guid-/);
    expect(fake.calls.at(-1)?.body).toMatchObject({ api_key: 'abcdefabcdef', blog: 'http://site.test', user_ip: '1.2.3.4' });
    await expect(client.commentCheck('bad', { comment_content: 'x' })).rejects.toThrow(/unable to parse/);
  });

  it('submits spam and ham; get-stats sends the key as key (and api_key); stats decode like json_decode', async () => {
    const client = createSpamfilterClient({ endpoint: fake.url, blog: 'http://site.test' });
    await client.submit('spam', 'abcdefabcdef', { comment_content: 'x' });
    await client.submit('ham', 'abcdefabcdef', { comment_content: 'y' });
    expect(fake.calls.slice(-2).map((c) => c.path)).toEqual(['/1.1/submit-spam', '/1.1/submit-ham']);
    fake.stats = { spam: 3, ham: 1 };
    try {
      expect(await client.getStats('abcdefabcdef', '6-months')).toEqual({ spam: 3, ham: 1 });
      // Automattic/akismet-api spec.yml: get-stats takes key, blog and from.
      expect(fake.calls.at(-1)).toEqual({ path: '/1.1/get-stats', body: { blog: 'http://site.test', key: 'abcdefabcdef', from: '6-months', api_key: 'abcdefabcdef' } });
      // A reply that is not JSON decodes to null (`invalid` for a key the service refuses).
      expect(await client.getStats('zzzzzzzzzzzz', 'all')).toBeNull();
    } finally {
      fake.stats = undefined;
    }
    // An empty reply is nothing at all (PHP's empty()).
    expect(await client.getStats('abcdefabcdef', 'all')).toBeUndefined();
  });

  it('states the alert of every verify-key, comment-check and get-stats reply, present or not; submits say nothing', async () => {
    const alerts: unknown[] = [];
    const client = createSpamfilterClient({ endpoint: fake.url, blog: 'http://site.test', onAlert: (a) => void alerts.push(a) });
    fake.alert = { code: '123', message: 'Your subscription lapsed' };
    try {
      await client.verifyKey('abcdefabcdef');
      await client.submit('spam', 'abcdefabcdef', { comment_content: 'x' });
      await client.submit('ham', 'abcdefabcdef', { comment_content: 'y' });
      expect(alerts).toEqual([{ code: '123', message: 'Your subscription lapsed' }]);
    } finally {
      fake.alert = undefined;
    }
    await client.commentCheck('abcdefabcdef', { comment_content: 'hello', user_ip: '1.2.3.4' });
    await client.getStats('abcdefabcdef', 'all');
    expect(alerts.slice(1)).toEqual([{ code: null, message: null }, { code: null, message: null }]);
  });

  it('times out and reports unreachable services clearly', async () => {
    fake.delayMs = 300;
    try {
      const slow = createSpamfilterClient({ endpoint: fake.url, blog: 'b', timeoutMs: 50 });
      await expect(slow.commentCheck('abcdefabcdef', { comment_content: 'x' })).rejects.toBeInstanceOf(SpamfilterRemoteError);
      expect(await slow.verifyKey('abcdefabcdef')).toBe(false);
    } finally {
      fake.delayMs = 0;
    }
    const down = createSpamfilterClient({ endpoint: `http://127.0.0.1:${await freePort()}`, blog: 'b' });
    await expect(down.commentCheck('k', {})).rejects.toThrow(/could not be reached/);
    expect(await down.getStats('k', 'all')).toBeUndefined();
  });
});
