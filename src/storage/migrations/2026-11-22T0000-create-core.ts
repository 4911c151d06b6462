import type { Kysely } from 'kysely';
import { bytewiseText, withIdColumn } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('users'))
    .addColumn('login', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(100)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('display_name', 'varchar(250)', (c) => c.notNull().defaultTo(''))
    .addColumn('nicename', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('registered_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();

  await withIdColumn(db, db.schema.createTable('posts'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('publish'))
    .addColumn('slug', bytewiseText(db, 200), (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('menu_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('modified', 'varchar(19)', (c) => c.notNull())
    .addColumn('modified_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('posts_type_slug', ['type', 'slug'])
    .execute();
  await db.schema.createIndex('posts_type_status_date').on('posts').columns(['type', 'status', 'date_gmt']).execute();
  await db.schema.createIndex('posts_parent').on('posts').column('parent').execute();
  await db.schema.createIndex('posts_author').on('posts').column('author').execute();

  await withIdColumn(db, db.schema.createTable('terms'))
    .addColumn('taxonomy', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('slug', bytewiseText(db, 200), (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('terms_taxonomy_slug', ['taxonomy', 'slug'])
    .execute();

  await db.schema.createTable('term_relationships')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('term_relationships_pk', ['post_id', 'term_id'])
    .execute();
  await db.schema.createIndex('term_relationships_term').on('term_relationships').columns(['term_id', 'post_id']).execute();

  await db.schema.createTable('options')
    .addColumn('name', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('application_passwords')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('last_used_gmt', 'varchar(19)')
    .addColumn('last_ip', 'varchar(45)')
    .execute();
  await db.schema.createIndex('application_passwords_user').on('application_passwords').column('user_id').execute();

  await withIdColumn(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('result', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_status_run_after').on('jobs').columns(['status', 'run_after_gmt']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['jobs', 'application_passwords', 'options', 'term_relationships', 'terms', 'posts', 'users']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
