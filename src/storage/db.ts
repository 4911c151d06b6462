/**
 * @module storage/db
 * The only file that picks an engine: SQLite (better-sqlite3, WAL) by default, PostgreSQL when the
 * database URL is a `postgres://` URL.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, sql, SqliteDialect, type Driver, type KyselyPlugin, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';
import { foldCase, PLANNED_FOR_VALUES, SQLITE_CASE_FOLD } from './dialect.js';

export type Db = Kysely<Database>;
export type Engine = 'sqlite' | 'postgres';

export interface DbOptions {
  /** `postgres://…`, `sqlite:path`, a plain file path, or `:memory:`. */
  url: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * PostgreSQL: run parameterised queries as named prepared statements (default). Off behind a
   * pooler that does not keep them per client (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
  /** SQLite file: checkpoint the WAL on a background thread (`wal-checkpointer.ts`); servers do. */
  backgroundCheckpoints?: boolean;
}

// Postgres returns int8 (counts, sums) as text; all our values fit a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric -> number
pg.types.setTypeParser(1700, (v) => Number(v));

/** Prepared statements kept per SQLite connection. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 behind Kysely, preparing each distinct SQL text once (Kysely prepares on every
 * query, which is most of a small query's cost). A statement still being iterated is not shared.
 */
function withStatementCache(db: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(sqlText: string) {
      const hit = cache.get(sqlText);
      if (hit && !hit.busy) {
        cache.delete(sqlText); // most recently used last
        cache.set(sqlText, hit);
        return hit;
      }
      const stmt = db.prepare(sqlText);
      if (!hit) {
        cache.set(sqlText, stmt);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return stmt;
    },
  };
}

/** Distinct statements one PostgreSQL connection prepares; queries of further shapes run unnamed. */
export const PG_PREPARED_PER_CONNECTION = 1000;
const statementNames = new Map<string, string>();

/** A statement's name: a hash of its text, so a name always stands for the same text. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `es_${crypto.createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= 4 * PG_PREPARED_PER_CONNECTION) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * One read statement (a `SELECT` or `WITH` without a `;`): prepared even without parameters, since
 * then PostgreSQL plans it once per connection (a statement without parameters always gets the
 * generic plan), where run unnamed it is planned each time (0.5 ms for the attendee statuses probe).
 */
const SINGLE_READ = /^\s*(select|with)\b[^;]*$/i;

/** How a query marked by `plannedForValues` (storage/dialect) opens: it runs unnamed. */
const PLANNED_SELECT = `select ${PLANNED_FOR_VALUES}`;

/**
 * Kysely runs every query unnamed, so PostgreSQL parses and analyses it each time, which for the
 * small queries of a page costs more than running them. Named, a statement is parsed once per
 * connection, and PostgreSQL's plan cache may keep a generic plan for it. Statements are per
 * connection: pg sends the Parse only where this connection has not prepared the name yet. Other
 * queries without parameters (transaction control, migrations with several statements) keep the
 * simple protocol. A query marked by `plannedForValues` runs unnamed, planned for its values each time.
 */
function prepareNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let prepared = 0;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const [text, values] = args;
    if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values)) return query(...args);
    if (values.length === 0 && !SINGLE_READ.test(text)) return query(...args);
    if (text.startsWith(PLANNED_SELECT)) return query(text, values);
    const name = statementName(text);
    const connection = (client as unknown as { connection: { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> } }).connection;
    if (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined) {
      if (prepared >= PG_PREPARED_PER_CONNECTION) return query(text, values);
      prepared++;
    }
    return query({ name, text, values });
  } as typeof client.query;
}

/** Opens the text {@link runAndCommit} sends: it commits the transaction it runs in. */
const COMMITS = '/* commits */ ';

/** What pg answers to a COMMIT, for the one {@link runAndCommit} already sent. */
const COMMITTED = Object.freeze({ command: 'COMMIT', rowCount: null, rows: [], fields: [] });

/**
 * Once {@link runAndCommit} committed a transaction on this connection, answers the COMMIT (or the
 * ROLLBACK, when the transaction's callback threw afterwards) that Kysely then sends, without a round
 * trip, and refuses any other statement until then: it would run outside the transaction.
 */
function answerCommitsSent(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let committed = false;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const text = args[0];
    if (committed) {
      if (text === 'commit' || text === 'rollback') {
        committed = false;
        return Promise.resolve(COMMITTED);
      }
      return Promise.reject(new Error('a statement after runAndCommit committed the transaction'));
    }
    if (typeof text === 'string' && text.startsWith(COMMITS)) {
      return (query(...args) as Promise<unknown>).then((result) => {
        committed = true;
        return result;
      });
    }
    return query(...args);
  } as typeof client.query;
}

/**
 * PostgreSQL: `statements` and then `COMMIT`, as one round trip, to end the transaction `trx`. The
 * statements are SQL without parameters (one text, `;` between them, sent by the simple protocol),
 * run in order; the first that fails stops the rest, nothing commits, and the error is thrown here,
 * so the transaction rolls back as any other. Nothing may run in `trx` afterwards: the COMMIT that
 * Kysely sends when the transaction's callback returns is answered in this process. For writes that
 * take row locks other transactions wait for (a checkout's seats): the locks are held for this round
 * trip only. Only where `capabilities(trx).oneTripCommit`.
 */
export async function runAndCommit(trx: Db, statements: string): Promise<void> {
  if (!trx.isTransaction || !(trx.getExecutor().adapter instanceof PostgresAdapter)) throw new Error('runAndCommit: only in a PostgreSQL transaction');
  await sql.raw(`${COMMITS}${statements}; COMMIT`).execute(trx);
}

/**
 * SQLite transactions take the write lock when they begin (`BEGIN IMMEDIATE`): a transaction in
 * another process then waits for it (busy timeout) instead of failing with `SQLITE_BUSY` when it
 * turns from reading to writing (several server processes, instances migrating together).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  /** Running from the driver's first use to its destruction (Kysely destroys only a used driver). */
  checkpointer: WalCheckpointer | undefined;

  constructor(readonly sqlite: SQLite.Database, private readonly checkpointFile?: string) {
    super({ database: withStatementCache(sqlite) });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const init = driver.init.bind(driver);
    driver.init = async () => {
      await init();
      if (this.checkpointFile) this.checkpointer = startWalCheckpointer(this.checkpointFile);
    };
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      await this.checkpointer?.stop();
      await destroy();
    };
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    // SQLite itself rolls back on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM); a second
    // ROLLBACK would fail and hide the cause behind "cannot rollback - no transaction is active".
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await connection.executeQuery(CompiledQuery.raw('rollback'));
    };
    return driver;
  }
}

/** The engine a database URL names. */
export function engineOf(url: string): Engine {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  // Any other `scheme://` URL (mysql://, mariadb://) names an engine this service has no driver for;
  // it must not become a SQLite file named after the URL.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  if (scheme && scheme.toLowerCase() !== 'sqlite') throw new Error(`DATABASE_URL: ${scheme}:// databases are not supported (use postgres://… or a SQLite file path)`);
  return 'sqlite';
}

const pools = new WeakMap<Db, pg.Pool>();

/** The connection pool behind a PostgreSQL database (for LISTEN, which needs a connection of its own). */
export function pgPoolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

const dialects = new WeakMap<Db, ImmediateSqliteDialect>();

/** The background WAL checkpointer of a SQLite database opened with `backgroundCheckpoints` (once used). */
export function walCheckpointerOf(db: Db): WalCheckpointer | undefined {
  return dialects.get(db)?.checkpointer;
}

/** `db` with a Kysely plugin added, keeping its PostgreSQL pool known (LISTEN/NOTIFY still work). */
export function withDbPlugin(db: Db, plugin: KyselyPlugin): Db {
  const out = db.withPlugin(plugin);
  const pool = pools.get(db);
  if (pool) pools.set(out, pool);
  return out;
}

/** Open the database a URL names. */
export function createDb(options: DbOptions): Db {
  if (engineOf(options.url) === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // A server that does not answer (network down) fails the request after this long instead of
      // holding it until the operating system gives up; the wait for a free connection is bounded too.
      connectionTimeoutMillis: 10_000,
      // JIT compilation pays off for long analytical queries; for a request's short ones (a count
      // over a large table crosses its cost threshold) it adds tens of milliseconds of compiling.
      // Prepared statements run in PostgreSQL's default plan cache mode (`auto`, set here whatever the
      // server's configuration says): after five executions a statement runs a generic plan unless
      // that plan is estimated dearer than planning for the values. Planning each execution
      // (`force_custom_plan`) cost a single event 1.8 ms of PostgreSQL CPU against 0.45 ms
      // (bench/README.md, "PostgreSQL: prepared statements").
      // No parallel workers: starting them costs more than a request's queries take (the default
      // window's count at 100,000 events: 99 ms with two workers, 26 ms without), and they take the
      // cores concurrent requests need.
      options: ['-c jit=off -c plan_cache_mode=auto -c max_parallel_workers_per_gather=0', ...(options.pgSchema ? [`-c search_path=${options.pgSchema}`] : [])].join(' '),
    });
    // A client losing its connection (PostgreSQL restarted, the backend terminated) must not crash
    // the process: idle ones are reported on the pool, checked-out ones on the client itself (pg
    // emits 'error' there with no listener). Its query fails, and the pool drops it on release.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      answerCommitsSent(client);
      if (options.preparedStatements !== false) prepareNamedStatements(client);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  const file = options.url.replace(/^sqlite:(\/\/)?/i, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // The busy timeout first: switching to WAL needs a lock, which another process opening the file
  // at the same moment (`serve --workers N` starting) may hold; without the timeout that is an
  // immediate SQLITE_BUSY ("database is locked") and the worker dies.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('temp_store = memory');
  // Pages are read through a memory map of the file (up to SQLite's 2 GB bound) instead of being copied
  // into each connection's 16 MB page cache: at a million events a search's per-candidate lookups
  // missed that cache and read their pages with a system call each (its count 235 → 88 ms). The
  // mapped pages are the operating system's page cache, shared by workers, counted as file-backed RSS.
  sqlite.pragma('mmap_size = 2147418112');
  sqlite.function(SQLITE_CASE_FOLD, { deterministic: true }, foldCase);
  dropSampledStatistics(sqlite);
  const background = options.backgroundCheckpoints === true && file !== ':memory:';
  if (background) sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const dialect = new ImmediateSqliteDialect(sqlite, background ? path.resolve(file) : undefined);
  const db = new Kysely<Database>({ dialect });
  dialects.set(db, dialect);
  return db;
}

/**
 * Removes the sampled planner statistics an `ANALYZE` run by hand (or by an older version) left: they
 * make hot statements prepare again on every run (see `refreshPlannerStatistics` in storage/dialect).
 */
function dropSampledStatistics(sqlite: SQLite.Database): void {
  const present = sqlite.prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'").get();
  if (!present || !sqlite.prepare('select 1 from sqlite_stat4 limit 1').get()) return;
  sqlite.exec('delete from sqlite_stat4; analyze sqlite_schema');
}
