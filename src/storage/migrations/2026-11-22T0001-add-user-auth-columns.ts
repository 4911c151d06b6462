import { sql, type Kysely } from 'kysely';

/**
 * Authentication additions: a per-user switch for application passwords, case-insensitive uniqueness
 * of logins and e-mail addresses (WordPress compares them case-insensitively), and of application
 * password names per user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('app_passwords_enabled', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await sql`CREATE UNIQUE INDEX users_login_lower ON users (lower(login))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_lower ON users (lower(email))`.execute(db);
  await sql`CREATE UNIQUE INDEX application_passwords_user_name ON application_passwords (user_id, lower(name))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('application_passwords_user_name').ifExists().execute();
  await db.schema.dropIndex('users_email_lower').ifExists().execute();
  await db.schema.dropIndex('users_login_lower').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('app_passwords_enabled').execute();
}
