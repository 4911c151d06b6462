import type { Kysely } from 'kysely';

/**
 * Failed sign-ins counted for every instance on the database (`auth/sign-in-failures.ts`): one row per
 * (address, login) pair and per address, keyed by a digest, with the failures of the current window.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_window_start').on('sign_in_failures').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_failures').ifExists().execute();
}
