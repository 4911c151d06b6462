import type { Kysely } from 'kysely';

/**
 * The jobs runner: claim, retry and idempotency columns on `jobs`, and `job_schedules` for recurring
 * jobs. Times are UTC `YYYY-MM-DD HH:MM:SS` like every other `_gmt` column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5)).execute();
  await db.schema.alterTable('jobs').addColumn('last_error', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('locked_by', 'varchar(100)').execute();
  await db.schema.alterTable('jobs').addColumn('locked_until_gmt', 'varchar(19)').execute();
  await db.schema.alterTable('jobs').addColumn('dedupe_key', 'varchar(191)').execute();
  await db.schema.alterTable('jobs').addColumn('finished_gmt', 'varchar(19)').execute();
  // NULLs never collide: only jobs enqueued with a dedupe key are unique.
  await db.schema.createIndex('jobs_dedupe_key').on('jobs').column('dedupe_key').unique().execute();
  await db.schema.createIndex('jobs_status_locked_until').on('jobs').columns(['status', 'locked_until_gmt']).execute();

  await db.schema
    .createTable('job_schedules')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('every_seconds', 'integer')
    .addColumn('daily_at', 'varchar(5)')
    .addColumn('next_run_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('last_run_gmt', 'varchar(19)')
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_schedules_next_run').on('job_schedules').column('next_run_gmt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_schedules').ifExists().execute();
  await db.schema.dropIndex('jobs_status_locked_until').ifExists().execute();
  await db.schema.dropIndex('jobs_dedupe_key').ifExists().execute();
  for (const c of ['finished_gmt', 'dedupe_key', 'locked_until_gmt', 'locked_by', 'last_error', 'max_attempts']) {
    await db.schema.alterTable('jobs').dropColumn(c).execute();
  }
}
