/**
 * @module storage/migrate
 * Runs the migrations in `migrations/` in name order (ISO-8601 date prefixes) and fails loudly on error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResult } from 'kysely';
import type { Db } from './db.js';
import { inExclusiveWrite, withInstanceLock } from './dialect.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Loads every `*.ts`/`*.js` file of the migrations folder (compiled or not). */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(MIGRATIONS_DIR)).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('.test.'));
    const migrations: Record<string, Migration> = {};
    for (const file of files.sort()) {
      const mod = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Migration;
      migrations[file.replace(/\.(ts|js)$/, '')] = mod;
    }
    return migrations;
  }
}

/** Names of migrations not yet applied (empty when the schema is current). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const names = Object.keys(await new FolderMigrationProvider().getMigrations());
  // Read through the search path (not Kysely's introspection, which may find another schema's table).
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db).then((r) => new Set(r.rows.map((x) => x.name)), () => new Set<string>());
  return names.filter((n) => !applied.has(n));
}

/**
 * Brings the schema up to date. Throws (naming the migration) if any migration fails.
 * @param schema PostgreSQL schema holding the migration tables, when not the default one (Kysely
 * otherwise finds another schema's migration tables and skips creating its own).
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<MigrationResult[]> {
  // Instances starting together migrate one after the other; the later ones find nothing to do.
  const { error, results = [] } = await withInstanceLock(db, () =>
    inExclusiveWrite(db, (locked) => new Migrator({ db: locked, provider: new FolderMigrationProvider(), ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest()),
  );
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return results;
}
