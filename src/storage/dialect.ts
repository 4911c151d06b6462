/**
 * @module storage/dialect
 * The few things that differ between SQLite and PostgreSQL, as capability flags and small functions,
 * after Kysely's DialectAdapter. Repos and migrations call these; nobody branches on an engine name.
 */
import { PostgresAdapter, sql, type AliasedRawBuilder, type Kysely, type RawBuilder, type Expression, type CreateTableBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';

/** True on PostgreSQL. Only this file asks. */
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Engine facts a caller may need. */
export function capabilities(db: Kysely<any>) {
  const pgsql = isPostgres(db);
  return {
    /** `SELECT … FOR UPDATE SKIP LOCKED` exists (PostgreSQL). */
    supportsRowLocks: pgsql,
    /** A transaction serialises every writer (SQLite's single writer). */
    serialisesWriters: !pgsql,
    /**
     * How substring search over posts is indexed: an FTS5 trigram table `posts_search` kept by
     * triggers (SQLite), or `pg_trgm` GIN indexes on the columns, which `ILIKE` uses as it is (PostgreSQL).
     */
    postTextIndex: (pgsql ? 'pg_trgm' : 'fts5-trigram') as 'pg_trgm' | 'fts5-trigram',
    /**
     * A table's rows live in a heap apart from its primary key's B-tree (PostgreSQL), so a key can carry
     * other columns for lookups that never read the rows; a SQLite rowid table is its key's B-tree.
     */
    rowsApartFromKey: pgsql,
    /** A row trigger runs a PL/pgSQL function (PostgreSQL), or holds its statements itself (SQLite). */
    triggerBodies: (pgsql ? 'plpgsql-function' : 'inline') as 'plpgsql-function' | 'inline',
    /**
     * A `WITH` may hold `INSERT`/`UPDATE` … `RETURNING` whose rows the rest of the statement reads, all
     * on one snapshot (PostgreSQL): a read and a write in one statement, one round trip. SQLite has no
     * such `WITH`, and a statement there costs no round trip.
     */
    writesInWith: pgsql,
    /**
     * A transaction's last statements (SQL without parameters) and its COMMIT go to the server as one
     * round trip (`runAndCommit` in storage/db; PostgreSQL): a row those statements lock is held for
     * that round trip only, not until this process, busy with other requests, gets to send the COMMIT.
     */
    oneTripCommit: pgsql,
  };
}

/**
 * Rows a claim picks, skipping rows another transaction holds (`FOR UPDATE SKIP LOCKED`) where the
 * engine has row locks. On SQLite the claim's one write statement runs alone (single writer), so the
 * query is left as it is.
 */
export function skippingLockedRows<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return isPostgres(db) ? (query.forUpdate().skipLocked() as QB) : query;
}

/**
 * Runs `fn` while no other instance on the same database runs it: a PostgreSQL session advisory
 * lock (per schema), held on one pooled connection while `fn` uses the others. SQLite instances share
 * one file on one host and have no such lock: `fn` runs as it is, and must cope with another instance
 * having done the work (see {@link inExclusiveWrite}).
 */
export async function withInstanceLock<T>(db: Kysely<any>, fn: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn();
  return db.connection().execute(async (conn) => {
    const key = sql`hashtext('eventsuite-startup:' || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn).catch(() => undefined);
    }
  });
}

/**
 * On SQLite, runs `fn` on the one connection inside `BEGIN IMMEDIATE`: the single writer of every
 * process, until it commits (`fn` must not begin transactions of its own). On PostgreSQL `fn` gets
 * `db` as it is (pair it with {@link withInstanceLock}).
 */
export async function inExclusiveWrite<T>(db: Kysely<any>, fn: (db: Kysely<any>) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return fn(db);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * `value IN (subquery)` for a subquery of a few values an index scan of the outer query should take as
 * its condition. On PostgreSQL `value = ANY (ARRAY(subquery))`: the subquery runs once, before the
 * scan, where as a semi-join every row the scan found went through the join (an event's 20,000
 * attendees counted in 1.1 ms that way, 0.85 ms this way). SQLite runs `IN (subquery)` so already.
 */
export function inFewValues(db: Kysely<any>, value: Expression<any>, subquery: Expression<any>): RawBuilder<SqlBool> {
  return isPostgres(db) ? sql<SqlBool>`${value} = ANY (ARRAY${subquery})` : sql<SqlBool>`${value} IN ${subquery}`;
}

/** Adds an auto-increment integer primary key `id` to a table being created. */
export function withIdColumn<T extends string, C extends string>(db: Kysely<any>, table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * Marks a `SELECT` (a comment after its `select`, {@link PLANNED_FOR_VALUES}): on PostgreSQL it runs
 * as an unnamed statement, planned for the values it binds each time, instead of a named prepared
 * statement that switches to a generic plan after five runs (`storage/db.ts`). For statements whose
 * best plan depends on a value's selectivity the planner cannot guess without it: a substring search's
 * `ILIKE` patterns. At a million events the generic plan of a search's count (a pattern of unknown
 * selectivity) hashed every event of the window (800,000 index entries) where the pattern's own
 * plan looks up its candidates. SQLite plans without sampled statistics (see
 * {@link refreshPlannerStatistics}), so the query is left as it is there.
 */
export function plannedForValues<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return isPostgres(db) ? (query.modifyFront(sql.raw(PLANNED_FOR_VALUES)) as QB) : query;
}

/** The comment {@link plannedForValues} puts after `select`; `storage/db.ts` looks for `select ` and it. */
export const PLANNED_FOR_VALUES = '/* planned for its values */';

/**
 * Case-insensitive LIKE: `ILIKE` on PostgreSQL; on SQLite, whose `LIKE` folds ASCII letters only,
 * `LIKE` for an ASCII pattern and, for a pattern with other letters (`élysée` must find `Élysée`, as
 * on PostgreSQL), `LIKE` of the column lower-cased by the application function {@link foldCase}
 * against the lower-cased pattern (a JavaScript call a row, so only then).
 *
 * SQLite refuses a LIKE pattern longer than 50,000 bytes ("LIKE or GLOB pattern too complex"), which a
 * search sent in a body can exceed; such a `%text%` is asked as `instr` of the lower-cased texts,
 * which finds the same rows. A compiled query reused with other values must take the form and the
 * bound value from {@link ilikeBinding}.
 */
export function ilike(db: Kysely<any>, column: Expression<any>, pattern: string): RawBuilder<boolean> {
  if (isPostgres(db)) return sql<boolean>`${column} ILIKE ${pattern} ESCAPE '\\'`;
  const { form, value } = ilikeBinding(db, pattern);
  if (form === 'instr') return sql<boolean>`instr(${sql.raw(SQLITE_CASE_FOLD)}(${column}), ${value}) > 0`;
  if (form === 'folded') return sql<boolean>`${sql.raw(SQLITE_CASE_FOLD)}(${column}) LIKE ${value} ESCAPE '\\'`;
  return sql<boolean>`${column} LIKE ${value} ESCAPE '\\'`;
}

/** The form {@link ilike} takes for `pattern` and the one value it binds. */
export function ilikeBinding(db: Kysely<any>, pattern: string): { form: 'like' | 'folded' | 'instr'; value: string } {
  if (isPostgres(db)) return { form: 'like', value: pattern };
  const long = pattern.length > SQLITE_LIKE_PATTERN_MAX / 3 && Buffer.byteLength(pattern) > SQLITE_LIKE_PATTERN_MAX;
  const text = long ? containedText(pattern) : undefined;
  if (text !== undefined) return { form: 'instr', value: foldCase(text) as string };
  return /[\u0080-\uffff]/.test(pattern) ? { form: 'folded', value: foldCase(pattern) as string } : { form: 'like', value: pattern };
}

/** SQLite's default `SQLITE_MAX_LIKE_PATTERN_LENGTH`, in bytes. */
const SQLITE_LIKE_PATTERN_MAX = 50_000;

/** The text of a {@link containsPattern} (`%…%` with no wildcard between), unescaped; otherwise undefined. */
function containedText(pattern: string): string | undefined {
  if (pattern.length < 2 || !pattern.startsWith('%') || !pattern.endsWith('%')) return undefined;
  let text = '';
  const inner = pattern.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '%' || c === '_') return undefined;
    if (c === '\\') {
      if (i + 1 >= inner.length) return undefined;
      text += inner[++i];
    } else text += c;
  }
  return text;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern used with {@link ilike}. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** A `%text%` pattern for substring search. */
export function containsPattern(text: string): string {
  return `%${likeEscape(text)}%`;
}

/** SQLite's name of {@link caseFolded}'s function, registered on every connection (`storage/db.ts`). */
export const SQLITE_CASE_FOLD = 'eventsuite_lower';

/**
 * A text in lower case, letter by letter (SQLite's own `lower` folds ASCII letters only). A letter
 * whose lower case is more than one character (`İ` → `i̇`) is kept, as SQLite's full-text index keeps
 * it, so a search finds through the index exactly what the LIKE finds.
 */
export function foldCase(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  if (lower.length === value.length) return lower;
  let out = '';
  for (const ch of value) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/**
 * `value` in lower case for case-insensitive equality: `lower` on PostgreSQL; on SQLite the application
 * function {@link foldCase}, since SQLite's `lower` leaves `É` as it is, so `Évènement` and `évènement`
 * were two names there and one on PostgreSQL. Not for indexes or large scans (a JavaScript call a row).
 */
export function caseFolded(db: Kysely<any>, value: Expression<any>): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`lower(${value})` : sql<string>`${sql.raw(SQLITE_CASE_FOLD)}(${value})`;
}

/**
 * Sort key for text ordered as the originals' database collation (`utf8mb4_unicode_ci`) orders it:
 * case aside (`apple`, `Banana`, `cherry`), where byte order puts every capital first. Callers add their
 * own tie-breaker (the ID). `lower` on both engines: SQLite's folds ASCII only, and accented letters
 * sort after `z` on both, so this matches the originals for unaccented text.
 */
export function textOrder(value: Expression<any>): RawBuilder<string> {
  return sql<string>`lower(${value})`;
}

/**
 * `column` begins with `prefix`, as a range (`>= prefix` and `<` the next string) so the column's
 * index answers it on both engines. Columns compared this way use bytewise order: SQLite's default,
 * `COLLATE "C"` on PostgreSQL ({@link bytewiseText}).
 */
export function startsWith(column: Expression<any>, prefix: string): RawBuilder<boolean> {
  if (prefix === '') return sql<boolean>`1 = 1`;
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql<boolean>`(${column} >= ${prefix} AND ${column} < ${upper})`;
}

/** Column type for identifiers compared bytewise (slugs): `COLLATE "C"` on PostgreSQL. */
export function bytewiseText(db: Kysely<any>, length: number): RawBuilder<unknown> {
  return isPostgres(db) ? sql`varchar(${sql.raw(String(length))}) collate "C"` : sql`varchar(${sql.raw(String(length))})`;
}

/**
 * The ISO week (`YYYY-WW`, ISO week-numbering year and week, weeks start on Monday) of a
 * `YYYY-MM-DD HH:MM:SS` text column.
 */
export function isoWeekOf(db: Kysely<any>, column: Expression<any>): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`to_char(CAST(${column} AS timestamp), 'IYYY-IW')` : sql<string>`strftime('%G-%V', ${column})`;
}

/** Most trigrams of one term sent to the index: any subset still finds every match, and the LIKE decides. */
const MAX_TERM_TRIGRAMS = 10;

/** The FTS5 query naming every trigram of the terms (each must occur), or undefined when no term has three characters. */
function trigramQuery(terms: readonly string[]): string | undefined {
  const grams = new Set<string>();
  for (const term of terms) {
    const chars = Array.from(term);
    for (let i = 0; i + 3 <= chars.length && i < MAX_TERM_TRIGRAMS; i++) {
      const gram = chars.slice(i, i + 3).join('');
      if (!gram.includes('\0')) grams.add(gram);
    }
  }
  return grams.size === 0 ? undefined : [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
}

/**
 * Narrows a search over `posts` (title, content, excerpt) to the posts whose text index holds every
 * trigram of the terms: a superset of the posts where each term occurs, so the caller keeps its
 * `LIKE`/`ILIKE` conditions, which decide. `id` is the posts ID the condition tests. Undefined when
 * the index cannot narrow (no term of three or more characters), and on PostgreSQL, where the
 * trigram indexes serve `ILIKE` directly.
 *
 * `drive: false` keeps the planner from reading the rows through the candidates (it tests each row it
 * reaches otherwise against them): right for a page in another order when candidates are many.
 */
export function postTextCandidates(db: Kysely<any>, id: Expression<number>, terms: readonly string[], options: { drive?: boolean } = {}): RawBuilder<SqlBool> | undefined {
  if (isPostgres(db)) return undefined;
  const query = trigramQuery(terms);
  if (query === undefined) return undefined;
  const candidates = sql`(SELECT rowid FROM posts_search WHERE posts_search MATCH ${query})`;
  return options.drive === false ? sql<SqlBool>`+${id} IN ${candidates}` : sql<SqlBool>`${id} IN ${candidates}`;
}

/**
 * How many posts {@link postTextCandidates} would give, counting no further than `atMost` (cheap);
 * undefined where it gives no condition.
 */
export async function countPostTextCandidates(db: Kysely<any>, terms: readonly string[], atMost: number): Promise<number | undefined> {
  if (isPostgres(db)) return undefined;
  const query = trigramQuery(terms);
  if (query === undefined) return undefined;
  const row = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM posts_search WHERE posts_search MATCH ${query} LIMIT ${atMost})`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/**
 * The values of `columns` as one JSON array per row (`json_array` / `json_build_array`), read back with
 * {@link unpackRow}. For wide rows read in bulk: better-sqlite3 gives each row an object with a
 * property per column, which costs more than SQLite takes to produce the row, while one JSON text
 * parses several times faster (PostgreSQL's driver parses `json` itself). Text, integers and NULL
 * come back as stored; REAL does not (SQLite writes 15 significant digits), so select those apart.
 */
export function packedColumns(db: Kysely<any>, columns: readonly (string | RawBuilder<unknown>)[]): RawBuilder<unknown> {
  const values = sql.join(columns.map((c) => (typeof c === 'string' ? sql.ref(c) : c)));
  return isPostgres(db) ? sql`json_build_array(${values})` : sql`json_array(${values})`;
}

/** The values of a {@link packedColumns} row, in the order of its columns. */
export function unpackRow(packed: unknown): unknown[] {
  return (typeof packed === 'string' ? JSON.parse(packed) : packed) as unknown[];
}

/**
 * `columns` of a row read in bulk, selected as the engine reads them cheapest, under `name`: on SQLite
 * packed in one column ({@link packedColumns}); on PostgreSQL apart, as `name0`, `name1`…, since there
 * `json_build_array` costs the server more than its driver saves (27 attendee rows: 390–460 → 520–550
 * µs of server CPU, PostgreSQL 15, for 60–150 µs less in Node). Read back with {@link rowValues}.
 */
export function rowColumns(db: Kysely<any>, name: string, columns: readonly (string | RawBuilder<unknown>)[]): AliasedRawBuilder<unknown, string>[] {
  if (!isPostgres(db)) return [packedColumns(db, columns).as(name)];
  return columns.map((c, i) => (typeof c === 'string' ? sql.ref(c) : c).as(`${name}${i}`));
}

const columnNames = new Map<string, string[]>();

/** The values {@link rowColumns} selected as `name` (`count` of them), in the order of its columns. */
export function rowValues(row: Record<string, unknown>, name: string, count: number): unknown[] {
  const packed = row[name];
  if (packed !== undefined) return unpackRow(packed);
  let names = columnNames.get(name);
  if (names === undefined || names.length < count) columnNames.set(name, (names = Array.from({ length: count }, (_, i) => `${name}${i}`)));
  const values = new Array<unknown>(count);
  for (let i = 0; i < count; i++) values[i] = row[names[i]!];
  return values;
}

/**
 * Fresh planner statistics for `tables` (or every table) after a bulk write. On SQLite only the
 * per-index averages (`sqlite_stat1`) are kept: with sampled statistics (`sqlite_stat4`) of an index, a
 * statement whose bound value is compared with that index is prepared again on every run (SQLite
 * re-plans for the value, and the driver binds anew each time). On the 10,000-event bench database the
 * venues and organizers of one event took 230 µs of CPU with samples and 30 µs without.
 */
export async function refreshPlannerStatistics(db: Kysely<any>, tables?: readonly string[]): Promise<void> {
  const analyze = async (on: Kysely<any>) => {
    if (tables) for (const table of tables) await sql`ANALYZE ${sql.table(table)}`.execute(on);
    else await sql`ANALYZE`.execute(on);
  };
  // PostgreSQL: outside a transaction, which would hold a lock on every table of the database at once.
  if (isPostgres(db)) return analyze(db);
  // SQLite: one transaction, or a process reloading the schema between the two would keep the samples.
  await db.transaction().execute(async (trx) => {
    await analyze(trx);
    const samples = await sql`select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'`.execute(trx);
    if (samples.rows.length === 0) return; // a build without sampled statistics
    await sql`DELETE FROM sqlite_stat4`.execute(trx);
    await sql`ANALYZE sqlite_schema`.execute(trx); // this connection plans with what is left
  });
}
