import type { Kysely } from 'kysely';

/** Extension packages installed from the registry, the shop admin's install/activate jobs, mobile sign-in links and uploaded themes. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('extensions')
    .addColumn('slug', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('version', 'varchar(40)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(500)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('installed_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('extension_jobs')
    .addColumn('job_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(30)', (c) => c.notNull())
    .addColumn('plugins', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('results', 'text', (c) => c.notNull())
    .addColumn('errors', 'text', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('extension_jobs_created').on('extension_jobs').columns(['kind', 'created_gmt']).execute();
  await db.schema
    .createTable('magic_links')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('expires_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('themes')
    .addColumn('slug', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('version', 'varchar(40)', (c) => c.notNull())
    .addColumn('css', 'text', (c) => c.notNull())
    .addColumn('installed_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('themes').ifExists().execute();
  await db.schema.dropTable('magic_links').ifExists().execute();
  await db.schema.dropTable('extension_jobs').ifExists().execute();
  await db.schema.dropTable('extensions').ifExists().execute();
}
