/**
 * @module server
 * Starting the service: open the database, migrate, create the first administrator on first start,
 * listen, and shut down gracefully on SIGTERM/SIGINT. `workers > 1` forks processes with Node's cluster.
 */
import cluster from 'node:cluster';
import crypto from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from './app.js';
import type { AppContext } from './app-context.js';
import type { Config } from './config.js';
import { createDb, type Db } from './storage/db.js';
import { migrateToLatest } from './storage/migrate.js';
import { withInstanceLock } from './storage/dialect.js';
import { createApplicationPassword, createUser } from './auth/index.js';

/**
 * Opens and migrates the configured database. Instances starting together migrate one at a time
 * (see `migrateToLatest`). `pgSchema`: a PostgreSQL schema other than the default (tests).
 */
export async function openDatabase(config: Pick<Config, 'databaseUrl'> & Partial<Pick<Config, 'databasePreparedStatements'>>, options: { pgSchema?: string } = {}): Promise<Db> {
  const pgSchema = options.pgSchema ?? searchPathSchema(config.databaseUrl);
  const db = createDb({ url: config.databaseUrl, preparedStatements: config.databasePreparedStatements ?? true, backgroundCheckpoints: true, ...options, ...(pgSchema ? { pgSchema } : {}) });
  try {
    await migrateToLatest(db, pgSchema);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}

/**
 * The schema a PostgreSQL URL selects the libpq way (`?options=-c%20search_path%3Dname`), so that
 * migrations keep their tables in it too; undefined when it names none (or several).
 */
export function searchPathSchema(url: string): string | undefined {
  if (!/^postgres(ql)?:\/\//i.test(url)) return undefined;
  let options: string | null;
  try {
    options = new URL(url).searchParams.get('options');
  } catch {
    return undefined;
  }
  return /(?:^|\s)-c\s*search_path=([A-Za-z_][A-Za-z0-9_]*)(?:\s|$)/.exec(options ?? '')?.[1];
}

export interface FirstAdmin {
  login: string;
  password: string;
  appPassword: string;
}

/**
 * On an empty site, creates the administrator and an application password (returned once). Of
 * several instances starting together, one creates it; the others find it.
 */
export function ensureFirstAdmin(ctx: AppContext): Promise<FirstAdmin | undefined> {
  return withInstanceLock(ctx.db, () => createFirstAdmin(ctx));
}

async function createFirstAdmin(ctx: AppContext): Promise<FirstAdmin | undefined> {
  const existing = await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return undefined;
  const password = crypto.randomBytes(12).toString('base64url');
  let user;
  try {
    user = await createUser(ctx, { login: 'admin', email: 'admin@localhost.localdomain', password, roles: ['administrator'], displayName: 'Administrator' });
  } catch (err) {
    // SQLite has no start-up lock across processes: another instance created it first.
    if (await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return undefined;
    throw err;
  }
  const { password: appPassword } = await createApplicationPassword(ctx, user.id, { name: 'eventsuite CLI' });
  return { login: user.login, password, appPassword };
}

function printFirstAdmin(admin: FirstAdmin, config: Config): void {
  const lines = [
    '',
    'eventsuite: first start — an administrator was created. This is shown once; keep it safe.',
    `  Sign in:              ${config.baseUrl}${config.adminPath}/wp-login.php`,
    `  User:                 ${admin.login}`,
    `  Password:             ${admin.password}`,
    `  Application password: ${admin.appPassword}`,
    `  Try it:               curl -u '${admin.login}:${admin.appPassword}' ${config.baseUrl}${config.apiPath}/`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const WORKER_MIN_LIFE_MS = 5_000;
const WORKER_RESTART_DELAY_MS = 1_000;

/** Opens the database, builds the app, listens and starts the jobs runner. */
async function startServing(config: Config) {
  const db = await openDatabase(config);
  const log = pino({ level: config.logLevel });
  const app = await buildApp({ config, db, logger: log });
  if (!cluster.isWorker) {
    const first = await ensureFirstAdmin(app.ctx);
    if (first) printFirstAdmin(first, config);
  }
  await app.listen({ port: config.port, host: config.host });
  app.ctx.jobs.start();
  return { db, log, app };
}

/** Runs the server until a signal stops it. */
export async function serve(config: Config): Promise<void> {
  if (config.workers > 1 && cluster.isPrimary) {
    // Migrate and create the admin once, in the primary, before forking.
    const db = await openDatabase(config);
    const log = pino({ level: config.logLevel });
    const app = await buildApp({ config, db, logger: log });
    const first = await ensureFirstAdmin(app.ctx);
    await app.close();
    await db.destroy();
    if (first) printFirstAdmin(first, config);
    const forkedAt = new Map<number, number>();
    const fork = () => forkedAt.set(cluster.fork().id, Date.now());
    for (let i = 0; i < config.workers; i++) fork();
    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (forkedAt.get(worker.id) ?? 0);
      forkedAt.delete(worker.id);
      if (!shuttingDown) {
        log.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
        // A worker that fails as it starts (database unreachable) is retried once a second, not in a tight loop.
        if (lived < WORKER_MIN_LIFE_MS) setTimeout(() => shuttingDown || fork(), WORKER_RESTART_DELAY_MS);
        else fork();
      }
    });
    let shuttingDown = false;
    const stop = () => {
      shuttingDown = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return;
  }

  const started = await startServing(config).catch((err: unknown) => {
    // A worker's IPC channel would keep it alive, half started, and the primary would never replace it.
    if (cluster.isWorker) {
      process.stderr.write(`eventsuite: worker ${process.pid} could not start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
    throw err;
  });
  const { db, log, app } = started;
  log.info({ url: `${config.baseUrl}${config.apiPath}/`, pid: process.pid }, 'eventsuite listening');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + 1_500);
    force.unref();
    // Stops accepting, lets in-flight requests and running jobs finish; a job still running after the
    // grace period is handed back to the queue, and another runner (or this one restarted) retries it.
    await Promise.all([app.ctx.jobs.stop(config.shutdownGraceMs), app.close()]);
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
