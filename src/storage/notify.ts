/**
 * @module storage/notify
 * Messages between the processes and hosts sharing one PostgreSQL database, over its own
 * LISTEN/NOTIFY. On SQLite (one host, no such channel) sending does nothing and nobody hears.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from './db.js';
import { pgPoolOf } from './db.js';

/**
 * The schema of each pool's connections, asked once: a pool's connections all open on one search path,
 * and a notice follows every write, so asking each time was a round trip per write.
 */
const schemas = new WeakMap<pg.Pool, Promise<string>>();

/** The channel of this database's schema (instances on other schemas of the same server do not hear it). */
async function channelOf(db: Db, pool: pg.Pool, name: string): Promise<string> {
  let schema = schemas.get(pool);
  if (!schema) {
    schema = sql<{ schema: string }>`select current_schema() as schema`.execute(db).then(({ rows }) => rows[0]?.schema ?? '');
    schemas.set(pool, schema);
    schema.catch(() => schemas.delete(pool));
  }
  return `es_${name}_${crypto.createHash('sha256').update(await schema).digest('hex').slice(0, 16)}`;
}

/** Sends `payload` to every listener of `name` (other processes included; at most 8000 bytes). */
export async function notify(db: Db, name: string, payload: string): Promise<void> {
  const pool = pgPoolOf(db);
  if (!pool) return;
  await sql`select pg_notify(${await channelOf(db, pool, name)}, ${payload})`.execute(db);
}

/**
 * Calls `onMessage` for each message sent to `name`, on a connection of its own that is opened again
 * when it breaks (`onReconnect` then runs: messages may have been missed). Returns `stop`.
 */
export async function listen(db: Db, name: string, onMessage: (payload: string) => void, onReconnect: () => void = () => {}): Promise<() => Promise<void>> {
  const pool = pgPoolOf(db);
  if (!pool) return async () => {};
  const channel = await channelOf(db, pool, name);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** One attempt; on failure another in a second, in the background. */
  const connect = async (): Promise<void> => {
    if (stopped) return;
    // Its own client, outside the pool: closing the pool never waits for it.
    const c = new pg.Client(pool.options);
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => undefined);
      if (client === c) client = undefined;
      if (stopped) return;
      onReconnect();
      retry = setTimeout(() => void connect(), 1000);
      retry.unref?.();
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', (msg) => {
      if (msg.channel === channel) onMessage(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      client = c;
    } catch {
      onLost();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    if (c) {
      await c.end().catch(() => undefined);
    }
  };
}
