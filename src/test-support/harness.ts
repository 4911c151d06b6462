/**
 * @module test-support/harness
 * Builds the whole app on a fresh database of one engine, with an administrator holding an
 * application password, and sends requests through Fastify's `inject()` (no port opens).
 *
 * @example
 * describe.each(DIALECTS)('GET /eventsuite/events/v1/events on %s', (engine) => {
 *   let t: TestApp;
 *   beforeAll(async () => { t = await startTestApp(engine); });
 *   afterAll(() => t.close());
 *   it('lists', async () => { expect((await t.request('GET', '/eventsuite/events/v1/events')).status).toBe(200); });
 * });
 */
import { pino, type Logger } from 'pino';
import { buildApp, type App } from '../app.js';
import type { AppContext } from '../app-context.js';
import { loadConfig, type ConfigOverrides } from '../config.js';
import type { Db, Engine } from '../storage/db.js';
import { createTestDb, type TestDb } from '../storage/test-db.js';
import { createUser } from '../auth/users.js';
import { createApplicationPassword } from '../auth/app-passwords.js';
import type { Mailer } from '../remote/mailer.js';

export { DIALECTS } from '../storage/test-db.js';

export interface TestUser {
  id: number;
  login: string;
  email: string;
  /** Application password, chunked form. */
  appPassword: string;
  /** `Basic …` header value. */
  authorization: string;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON (undefined when the body is not JSON). */
  body: any;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | (string | number)[]>;
  /** Sent as `application/json`. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded` (already encoded string or flat map). */
  form?: string | Record<string, string | number>;
  headers?: Record<string, string>;
  /** Who calls: a user, or null/undefined for anonymous. */
  as?: TestUser | null;
}

export interface TestApp {
  engine: Engine;
  app: App;
  ctx: AppContext;
  db: Db;
  testDb: TestDb;
  admin: TestUser;
  /** A new user with `role` and an application password. */
  createUser(role: string, login?: string): Promise<TestUser>;
  /** `path` is a route (`/eventsuite/events/v1/events`); the API root is prefixed. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

let userCounter = 0;

function encodeQuery(query: RequestOptions['query']): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) v.forEach((x) => parts.push(`${encodeURIComponent(k)}[]=${encodeURIComponent(String(x))}`));
    else parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Starts the app on a fresh database of `engine`. */
export async function startTestApp(engine: Engine, overrides: ConfigOverrides = {}, extra: { mailer?: Mailer; now?: () => Date; logger?: Logger } = {}): Promise<TestApp> {
  const testDb = await createTestDb(engine);
  // Tests stand behind a trusted proxy so they can vary the client address with X-Forwarded-For.
  const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent', trustProxy: true, ...overrides });
  const app = await buildApp({ config, db: testDb.db, logger: pino({ level: 'silent' }), ...extra });
  await app.ready();

  const makeUser = async (role: string, login?: string): Promise<TestUser> => {
    const name = login ?? `${role}${++userCounter}`;
    const user = await createUser(app.ctx, { login: name, email: `${name}@example.test`, password: `${name}-password`, roles: [role] });
    const { password } = await createApplicationPassword(app.ctx, user.id, { name: 'tests' });
    return {
      id: user.id,
      login: name,
      email: `${name}@example.test`,
      appPassword: password,
      authorization: `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`,
    };
  };
  const admin = await makeUser('administrator', 'admin');

  return {
    engine,
    app,
    ctx: app.ctx,
    db: testDb.db,
    testDb,
    admin,
    createUser: makeUser,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.as) headers.authorization = options.as.authorization;
      let payload: string | undefined;
      if (options.json !== undefined) {
        headers['content-type'] ??= 'application/json';
        payload = JSON.stringify(options.json);
      } else if (options.form !== undefined) {
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
        payload = typeof options.form === 'string' ? options.form : new URLSearchParams(Object.entries(options.form).map(([k, v]) => [k, String(v)])).toString();
      }
      const res = await app.inject({ method: method as never, url: `${app.ctx.config.apiPath}${path}${encodeQuery(options.query)}`, headers, ...(payload !== undefined ? { payload } : {}) });
      let body: unknown;
      try {
        body = res.body === '' ? undefined : JSON.parse(res.body);
      } catch {
        body = undefined;
      }
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      return { status: res.statusCode, headers: flat, body, text: res.body };
    },
    async close() {
      await app.close();
      await testDb.destroy();
    },
  };
}
