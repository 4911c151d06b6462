import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * Indexes for substring search over posts (title, content, excerpt), built for the rows already there.
 * The search itself stays `LIKE '%term%'` (SQLite) / `ILIKE` (PostgreSQL); the indexes only find the
 * candidates, so results do not change.
 *
 * SQLite: `posts_search`, an FTS5 table with the trigram tokenizer over `posts` (external content, no
 * copy of the text, `detail=none`: rowids only), kept in step by triggers.
 * PostgreSQL: `pg_trgm` GIN indexes on the three columns. The extension is installed once per database
 * (in `public`, so no test schema owns it) unless some schema has it already; where it cannot be
 * installed (no privilege, not shipped) the indexes are left out and search keeps scanning.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (capabilities(db).postTextIndex === 'fts5-trigram') {
    await sql`CREATE VIRTUAL TABLE posts_search USING fts5(title, content, excerpt, content='posts', content_rowid='id', tokenize='trigram', detail='none')`.execute(db);
    await sql`CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
      INSERT INTO posts_search (rowid, title, content, excerpt) VALUES (new.id, new.title, new.content, new.excerpt);
    END`.execute(db);
    await sql`CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
      INSERT INTO posts_search (posts_search, rowid, title, content, excerpt) VALUES ('delete', old.id, old.title, old.content, old.excerpt);
    END`.execute(db);
    await sql`CREATE TRIGGER posts_search_update AFTER UPDATE OF id, title, content, excerpt ON posts BEGIN
      INSERT INTO posts_search (posts_search, rowid, title, content, excerpt) VALUES ('delete', old.id, old.title, old.content, old.excerpt);
      INSERT INTO posts_search (rowid, title, content, excerpt) VALUES (new.id, new.title, new.content, new.excerpt);
    END`.execute(db);
    await sql`INSERT INTO posts_search (posts_search) VALUES ('rebuild')`.execute(db);
    return;
  }
  const schema = await trigramSchema(db);
  if (schema === undefined) return;
  const opclass = sql.id(schema, 'gin_trgm_ops');
  for (const column of ['title', 'content', 'excerpt']) {
    await sql`CREATE INDEX ${sql.id(`posts_${column}_trgm`)} ON posts USING gin (${sql.id(column)} ${opclass})`.execute(db);
  }
}

/**
 * The schema holding `pg_trgm`, installing it in `public` when no schema has it; undefined when it
 * cannot be installed. Test files migrate their own schemas at the same time: a transaction lock makes
 * the first install the only one.
 */
async function trigramSchema(db: Kysely<any>): Promise<string | undefined> {
  const installed = async () =>
    (await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm'`.execute(db)).rows[0]?.schema;
  const found = await installed();
  if (found !== undefined) return found;
  await sql`SELECT pg_advisory_xact_lock(hashtext('eventsuite-install-pg_trgm'))`.execute(db);
  await sql`SAVEPOINT install_pg_trgm`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
    await sql`RELEASE SAVEPOINT install_pg_trgm`.execute(db);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT install_pg_trgm`.execute(db);
    return undefined;
  }
  return installed();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (capabilities(db).postTextIndex === 'fts5-trigram') {
    for (const trigger of ['posts_search_insert', 'posts_search_delete', 'posts_search_update']) await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
    await sql`DROP TABLE IF EXISTS posts_search`.execute(db);
    return;
  }
  for (const column of ['title', 'content', 'excerpt']) await sql`DROP INDEX IF EXISTS ${sql.id(`posts_${column}_trgm`)}`.execute(db);
}
