import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * SQLite's text index `posts_search` holds events only: event search is its one reader, while every
 * order and attendee post of a checkout also wrote its trigrams, a good part of the pages each
 * checkout commits. The triggers now index a post while its type is `tribe_events`, and the rows of
 * other posts leave the index (an external-content FTS5 row is removed with the values it was indexed
 * with, which are the post's current ones: the old triggers kept them in step).
 */
const EVENT = 'tribe_events';

export async function up(db: Kysely<any>): Promise<void> {
  if (capabilities(db).postTextIndex !== 'fts5-trigram') return;
  for (const trigger of ['posts_search_insert', 'posts_search_delete', 'posts_search_update']) await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
  await sql`CREATE TRIGGER posts_search_insert AFTER INSERT ON posts WHEN new.type = ${sql.lit(EVENT)} BEGIN
    INSERT INTO posts_search (rowid, title, content, excerpt) VALUES (new.id, new.title, new.content, new.excerpt);
  END`.execute(db);
  await sql`CREATE TRIGGER posts_search_delete AFTER DELETE ON posts WHEN old.type = ${sql.lit(EVENT)} BEGIN
    INSERT INTO posts_search (posts_search, rowid, title, content, excerpt) VALUES ('delete', old.id, old.title, old.content, old.excerpt);
  END`.execute(db);
  await sql`CREATE TRIGGER posts_search_update AFTER UPDATE OF id, type, title, content, excerpt ON posts BEGIN
    INSERT INTO posts_search (posts_search, rowid, title, content, excerpt) SELECT 'delete', old.id, old.title, old.content, old.excerpt WHERE old.type = ${sql.lit(EVENT)};
    INSERT INTO posts_search (rowid, title, content, excerpt) SELECT new.id, new.title, new.content, new.excerpt WHERE new.type = ${sql.lit(EVENT)};
  END`.execute(db);
  await sql`INSERT INTO posts_search (posts_search, rowid, title, content, excerpt) SELECT 'delete', id, title, content, excerpt FROM posts WHERE type <> ${EVENT}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (capabilities(db).postTextIndex !== 'fts5-trigram') return;
  for (const trigger of ['posts_search_insert', 'posts_search_delete', 'posts_search_update']) await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
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
}
