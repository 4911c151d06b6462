import { sql, type Kysely } from 'kysely';

/**
 * Events, venues and organizers already in the trash free their slugs, as those trashed from now on
 * do (`slug__trashed`, see `trashedPostSlug`): a new post of the same name then takes the slug. A
 * slug too long for the suffix, or whose trashed form is taken, is left as it is (restoring handles both).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE posts SET slug = slug || '__trashed'
    WHERE status = 'trash' AND type IN ('tribe_events', 'tribe_venue', 'tribe_organizer') AND length(slug) <= 191
      AND slug NOT LIKE ${'%\\_\\_trashed%'} ESCAPE ${'\\'}
      AND NOT EXISTS (SELECT 1 FROM posts AS taken WHERE taken.type = posts.type AND taken.slug = posts.slug || '__trashed')`.execute(db);
}

export async function down(): Promise<void> {
  // The trashed slugs are what the code expects from now on; restoring a post gives its slug back.
}
