#!/usr/bin/env node
/**
 * @module cli
 * The `eventsuite` command line: serve, migrate, user create, app-password create, and the commands of
 * `cli-commands.ts` (seed, import, media regenerate, …).
 * Create commands take their values as flags (no prompts) and print JSON with `--json`.
 */
import crypto from 'node:crypto';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { buildApp, type App } from './app.js';
import { loadConfig, type Config, type ConfigOverrides } from './config.js';
import { openDatabase, serve } from './server.js';
import { createApplicationPassword, createUser } from './auth/index.js';
import { commandExtensions } from './cli-commands.js';

const HELP = `eventsuite — self-hosted events, ticketing and site REST API

Usage: eventsuite <command> [options]

Commands:
  serve                         start the HTTP server (migrates first)
  migrate                       bring the database schema up to date
  user create                   create a user
      --login NAME --email ADDRESS [--role ROLE] [--password PASSWORD] [--display-name NAME] [--json]
      (without --password a password is generated and printed once)
  app-password create           create an application password for a user
      --user LOGIN --name NAME [--app-id UUID] [--json]
${commandExtensions.map((c) => `  ${c.usage}`).join('\n')}

Global options (also from the environment):
  --port N            PORT           (default 8080)
  --host ADDRESS      HOST           (default 127.0.0.1)
  --database-url URL  DATABASE_URL   (default ./data/eventsuite.sqlite; postgres://... for PostgreSQL)
  --base-url URL      BASE_URL       (default http://localhost:PORT)
  --workers N         WORKERS        (serve: processes to fork, default 1)
  -h, --help          show this help
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'database-url': { type: 'string' },
  'base-url': { type: 'string' },
  workers: { type: 'string' },
  login: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  'display-name': { type: 'string' },
  user: { type: 'string' },
  name: { type: 'string' },
  'app-id': { type: 'string' },
  events: { type: 'string' },
  orders: { type: 'string' },
  customers: { type: 'string' },
  key: { type: 'string' },
  from: { type: 'string' },
  until: { type: 'string' },
  list: { type: 'string' },
  origin: { type: 'string' },
  source: { type: 'string' },
  frequency: { type: 'string' },
  status: { type: 'string' },
  kind: { type: 'string' },
  limit: { type: 'string' },
  yes: { type: 'boolean' },
  'only-missing': { type: 'boolean' },
  'skip-delete': { type: 'boolean' },
} as const;

export type CliValues = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

class UsageError extends Error {}

function configFrom(values: CliValues): Config {
  const overrides: ConfigOverrides = {};
  const env = { ...process.env };
  if (values.port) env.PORT = values.port;
  if (values.host) env.HOST = values.host;
  if (values['database-url']) env.DATABASE_URL = values['database-url'];
  if (values['base-url']) env.BASE_URL = values['base-url'];
  if (values.workers) env.WORKERS = values.workers;
  return { ...loadConfig(env, overrides) };
}

function need(values: CliValues, name: keyof CliValues): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing --${name}`);
  return v;
}

/** Runs `fn` with the app built on the configured database (no HTTP listener). */
export async function withApp<T>(config: Config, fn: (app: App) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  const app = await buildApp({ config, db, logger: pino({ level: 'warn' }) });
  try {
    return await fn(app);
  } finally {
    await app.close();
    await db.destroy();
  }
}

function print(values: CliValues, data: Record<string, unknown>, human: string): void {
  process.stdout.write(values.json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const v = values as CliValues;
  const [cmd, sub, ...rest] = positionals;
  if (v.help || !cmd) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = configFrom(v);
  switch (`${cmd}${sub && ['user', 'app-password'].includes(cmd) ? ` ${sub}` : ''}`) {
    case 'serve':
      await serve(config);
      return -1; // keep running
    case 'migrate': {
      const db = await openDatabase(config);
      await db.destroy();
      print(v, { migrated: true }, 'database is up to date');
      return 0;
    }
    case 'user create':
      return withApp(config, async (app) => {
        // Without --password the user gets a generated one, printed once (else nobody could sign in).
        const generated = v.password ? undefined : crypto.randomBytes(12).toString('base64url');
        const user = await createUser(app.ctx, {
          login: need(v, 'login'),
          email: need(v, 'email'),
          roles: [v.role ?? 'subscriber'],
          password: v.password || generated!,
          ...(v['display-name'] ? { displayName: v['display-name'] } : {}),
        });
        print(v, generated ? { ...user, password: generated } : user, `created user ${user.login} (id ${user.id})${generated ? `\n  password: ${generated}` : ''}`);
        return 0;
      });
    case 'app-password create':
      return withApp(config, async (app) => {
        const login = need(v, 'user');
        const row = await app.ctx.db.selectFrom('users').select('id').where('login', '=', login).executeTakeFirst();
        if (!row) throw new UsageError(`no user with login ${login}`);
        const { password, item } = await createApplicationPassword(app.ctx, row.id, { name: need(v, 'name'), ...(v['app-id'] ? { appId: v['app-id'] } : {}) });
        print(v, { ...item, user_login: login, password }, `application password for ${login}: ${password}`);
        return 0;
      });
    default: {
      const ext = commandExtensions.find((c) => c.name === cmd);
      if (!ext) throw new UsageError(`unknown command: ${cmd}`);
      return ext.run({ config, values: v, args: [sub, ...rest].filter((x): x is string => x !== undefined), withApp: (fn) => withApp(config, fn), print: (d, h) => print(v, d, h) });
    }
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1]);
if (isMain) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`eventsuite: ${message}\n`);
      if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) process.stderr.write('Run eventsuite --help for usage.\n');
      process.exitCode = err instanceof UsageError ? 2 : 1;
    },
  );
}
