import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';
import { NONCE_LIFE_S, createNonce, nonceTick, verifyNonce, type NonceSubject } from './nonces.js';
import { getUser } from './users.js';

const HALF = (NONCE_LIFE_S / 2) * 1000;

describe.each(DIALECTS)('nonces on %s', (engine) => {
  let t: TestApp;
  let second: App;
  // Just after the start of a tick.
  const tickStart = Math.ceil(Date.parse('2026-05-01T00:00:00Z') / HALF) * HALF + 1000;
  let clock = tickStart;
  let admin: NonceSubject;
  let other: NonceSubject;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => new Date(clock) });
    const editor = await t.createUser('editor');
    admin = { user: (await getUser(t.ctx, t.admin.id))!, auth: { method: 'cookie', sessionToken: 'token-a' } };
    other = { user: (await getUser(t.ctx, editor.id))!, auth: { method: 'cookie', sessionToken: 'token-a' } };
    // A second instance on the same database: nonces are stateless.
    second = await buildApp({ config: t.ctx.config, db: t.db, logger: pino({ level: 'silent' }), now: () => new Date(clock) });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('are 10 hex characters', async () => {
    expect(await createNonce(t.ctx, admin, 'wp_rest')).toMatch(/^[0-9a-f]{10}$/);
  });

  it('verify as 1 in their tick, 2 in the next, and not after', async () => {
    clock = tickStart;
    const nonce = await createNonce(t.ctx, admin, 'wp_rest');
    clock = tickStart + HALF - 2000;
    expect(nonceTick(new Date(clock))).toBe(nonceTick(new Date(tickStart)));
    expect(await verifyNonce(t.ctx, admin, 'wp_rest', nonce)).toBe(1);
    clock = tickStart + HALF;
    expect(await verifyNonce(t.ctx, admin, 'wp_rest', nonce)).toBe(2);
    clock = tickStart + 2 * HALF - 2000;
    expect(await verifyNonce(t.ctx, admin, 'wp_rest', nonce)).toBe(2);
    clock = tickStart + 2 * HALF;
    expect(await verifyNonce(t.ctx, admin, 'wp_rest', nonce)).toBe(false);
    clock = tickStart;
  });

  it('are bound to the action, the user and the session token', async () => {
    const nonce = await createNonce(t.ctx, admin, 'wp_rest');
    expect(await verifyNonce(t.ctx, admin, 'log-out', nonce)).toBe(false);
    expect(await verifyNonce(t.ctx, other, 'wp_rest', nonce)).toBe(false);
    expect(await verifyNonce(t.ctx, { ...admin, auth: { method: 'cookie', sessionToken: 'token-b' } }, 'wp_rest', nonce)).toBe(false);
    expect(await verifyNonce(t.ctx, { user: null, auth: { method: 'none' } }, 'wp_rest', nonce)).toBe(false);
  });

  it('refuse empty and non-string values', async () => {
    for (const bad of ['', undefined, null, 123, ['x'], 'zzzzzzzzzz']) expect(await verifyNonce(t.ctx, admin, 'wp_rest', bad)).toBe(false);
  });

  it('verify on another instance sharing the database', async () => {
    const nonce = await createNonce(t.ctx, admin, 'wp_rest');
    expect(await verifyNonce(second.ctx, admin, 'wp_rest', nonce)).toBe(1);
  });
});

describe('nonceTick', () => {
  it('is ceil(seconds / 43200)', () => {
    expect(nonceTick(new Date(43_200_000))).toBe(1);
    expect(nonceTick(new Date(43_200_001))).toBe(2);
  });
});
