import crypto from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * `spamfilter_checks.sender`: who sent the checked submission, as the SHA-256 of the identity the
 * original counts a commenter's approved comments by (`Akismet::get_user_comments_approved`): the
 * signed-in user's id, else the e-mail address with the name and the URL (compared without case, as
 * MySQL compares them); `''` when there is neither. Indexed: the submissions page counts each
 * sender's approved submissions. Checks stored before this kept no user id: they count by address.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('spamfilter_checks').addColumn('sender', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('spamfilter_checks').select(['id', 'fields']).where('id', '>', after).orderBy('id').limit(500).execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const sender = senderOf(row.fields as string);
      if (sender) await db.updateTable('spamfilter_checks').set({ sender }).where('id', '=', row.id).execute();
    }
    after = Number(rows.at(-1)!.id);
  }
  await db.schema.createIndex('spamfilter_checks_sender').on('spamfilter_checks').column('sender').execute();
}

/** The sender of a stored check's fields (as `namespaces/spamfilter/checks.service.ts` computes it). */
function senderOf(fields: string): string {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(fields) as Record<string, unknown>;
  } catch {
    return '';
  }
  const text = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');
  const userId = typeof input.userId === 'number' && input.userId > 0 ? input.userId : 0;
  const identity = userId ? `user:${userId}` : text(input.email) ? `email:${text(input.email)}\n${text(input.author)}\n${text(input.url)}` : '';
  return identity && crypto.createHash('sha256').update(identity).digest('hex');
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('spamfilter_checks_sender').execute();
  await db.schema.alterTable('spamfilter_checks').dropColumn('sender').execute();
}
