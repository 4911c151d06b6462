import type { Kysely } from 'kysely';

/** Marks a job handler sets after a side effect that must not happen twice (an e-mail sent). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_marks')
    .addColumn('mark', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_marks').ifExists().execute();
}
