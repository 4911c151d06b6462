import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { renderContent } from '../../content/posts.js';

/**
 * Events keep the rendered HTML (`wpautop`) of their description and excerpt beside the raw text, so a
 * read does not render it again. NULL means "not rendered": readers render the raw text then. A
 * trigger clears both when a post's content or excerpt changes behind the events service's back (the
 * service writes the fresh HTML after its post update). Existing events are rendered here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_details').addColumn('content_html', 'text').execute();
  await db.schema.alterTable('event_details').addColumn('excerpt_html', 'text').execute();

  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    await sql`create function event_details_unrender() returns trigger language plpgsql as $$
      begin
        update event_details set content_html = null, excerpt_html = null where post_id = new.id;
        return new;
      end $$`.execute(db);
    await sql`create trigger posts_event_unrender after update of content, excerpt on posts for each row
      when (old.content is distinct from new.content or old.excerpt is distinct from new.excerpt)
      execute function event_details_unrender()`.execute(db);
  } else {
    await sql`create trigger posts_event_unrender after update of content, excerpt on posts for each row
      when old.content is not new.content or old.excerpt is not new.excerpt
      begin
        update event_details set content_html = null, excerpt_html = null where post_id = new.id;
      end`.execute(db);
  }

  // Backfill in ID order, a batch at a time.
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('event_details as e')
      .innerJoin('posts as p', 'p.id', 'e.post_id')
      .select(['e.post_id', 'p.content', 'p.excerpt'])
      .where('e.post_id', '>', after)
      .orderBy('e.post_id')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    for (const r of rows) {
      await db
        .updateTable('event_details')
        .set({ content_html: renderContent(String(r.content)), excerpt_html: renderContent(String(r.excerpt)) })
        .where('post_id', '=', r.post_id)
        .execute();
    }
    after = Number(rows[rows.length - 1]!.post_id);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await (pg ? sql`drop trigger if exists posts_event_unrender on posts` : sql`drop trigger if exists posts_event_unrender`).execute(db);
  if (pg) await sql`drop function if exists event_details_unrender()`.execute(db);
  await db.schema.alterTable('event_details').dropColumn('excerpt_html').execute();
  await db.schema.alterTable('event_details').dropColumn('content_html').execute();
}
