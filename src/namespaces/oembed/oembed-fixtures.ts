/**
 * @module namespaces/oembed/oembed-fixtures
 * Test fixtures of the oEmbed area: rows written straight into `posts` and `users` (the areas that
 * own those kinds are written in parallel), and a context over a bare test database.
 */
import { Areas } from '../../areas.js';
import { RoleTable } from '../../auth/roles.js';
import { allAreas } from '../index.js';
import { pino } from 'pino';
import type { AppContext } from '../../app-context.js';
import { loadConfig, siteUrls } from '../../config.js';
import { Options } from '../../content/options.js';
import type { Db } from '../../storage/db.js';
import { Jobs } from '../../jobs/index.js';

let counter = 0;

export interface PostFixture {
  type?: string;
  status?: string;
  slug?: string;
  title?: string;
  author?: number;
  password?: string;
  image_url?: string;
}

/** Inserts a post (published event by default) and returns its id. */
export async function insertPost(db: Db, post: PostFixture = {}): Promise<number> {
  const n = ++counter;
  const row = await db
    .insertInto('posts')
    .values({
      type: post.type ?? 'tribe_events',
      status: post.status ?? 'publish',
      slug: post.slug ?? `post-${n}`,
      title: post.title ?? `Post ${n}`,
      content: '',
      excerpt: '',
      author: post.author ?? 0,
      parent: 0,
      password: post.password ?? '',
      menu_order: 0,
      date: '2026-05-01 10:00:00',
      date_gmt: '2026-05-01 10:00:00',
      modified: '2026-05-01 10:00:00',
      modified_gmt: '2026-05-01 10:00:00',
      image_url: post.image_url ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts a user row (no password, no roles) and returns its id. */
export async function insertUser(db: Db, user: { login: string; display_name: string; nicename: string }): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ ...user, email: `${user.login}@example.test`, password_hash: '', url: '', roles: '[]', registered_gmt: '2026-01-01 00:00:00', session_version: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A context over `db` for service-level tests (no mail, silent log). */
export function fixtureContext(db: Db, environment: 'local' | 'production' = 'local'): AppContext {
  const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent', environment });
  const areas = new Areas(allAreas());
  const ctx: AppContext = {
    db,
    config,
    urls: siteUrls(config, areas.postTypes),
    log: pino({ level: 'silent' }),
    options: new Options(db),
    mailer: { configured: false, send: () => Promise.reject(new Error('no mail in tests')), close: () => {} },
    now: () => new Date(),
    areas,
    roles: new RoleTable(areas),
    jobs: new Jobs(() => ctx),
  };
  return ctx;
}
