/**
 * @module app
 * Builds the application: context, registry, dispatcher, discovery and the Fastify host. No listen:
 * tests drive it with `inject()`, `main.ts` listens.
 */
import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify';
import multipart from '@fastify/multipart';
import { pino, type Logger } from 'pino';
import type { AppContext } from './app-context.js';
import { siteUrls, type Config } from './config.js';
import { Options, SITE_DEFAULTS } from './content/options.js';
import { createMailer, type Mailer } from './remote/mailer.js';
import { createAuthenticator } from './auth/index.js';
import { applicationPasswordsAvailable } from './auth/availability.js';
import { registerAdminPages } from './admin/index.js';
import type { PageHost } from './area.js';
import { Areas } from './areas.js';
import { syncAreaState } from './area-state.js';
import { checkApiGates, checkPageGates } from './site-hooks.js';
import { RoleTable } from './auth/roles.js';
import { batchRoute } from './rest/batch.js';
import { Discovery, namespaceIndexRoute, siteIndexRoute } from './rest/discovery.js';
import { Dispatcher } from './rest/dispatch.js';
import { CoreErrors } from './rest/errors.js';
import { parsePhpQuery } from './rest/php-query.js';
import { Registry } from './rest/registry.js';
import { openApiDocument } from './rest/openapi.js';
import type { Db } from './storage/db.js';
import { isClientDataError } from './storage/data-errors.js';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './storage/unavailable.js';
import { NAMESPACE_ORDER, allAreas } from './namespaces/index.js';
import { registerRestHost } from './http/rest-host.js';
import { redactUrl } from './http/log-redact.js';
import { lazyChildLogger } from './http/request-logger.js';
import { Jobs, type RunnerOptions } from './jobs/index.js';
import { registerHealthRoutes } from './http/health.js';
import { registerPostPages } from './http/post-pages.js';
import { registerUploads, UPLOADS_PATH } from './http/uploads.js';
import { startInvalidation } from './storage/invalidation.js';
import { restHeaders } from './http/headers.js';
import { errorWire } from './rest/serve.js';
import { serveHomePage } from './http/home-page.js';
import { edgeClientErrorHandler, edgeErrorHandler, edgeFrameworkErrors, edgeNotFound } from './http/edge-errors.js';

/** The service version, shown in the OpenAPI document. */
export const APP_VERSION = '0.1.0';

export interface BuildOptions {
  config: Readonly<Config>;
  db: Db;
  logger?: Logger;
  mailer?: Mailer;
  /** Replace the clock (tests). */
  now?: () => Date;
  /** Jobs runner tuning (tests). */
  jobs?: Partial<RunnerOptions>;
}

export type App = FastifyInstance & { ctx: AppContext; dispatcher: Dispatcher<AppContext>; readonly registry: Registry };

const SITE_HEAD = ['blogname', 'blogdescription', 'gmt_offset', 'timezone_string', 'page_for_posts', 'page_on_front', 'show_on_front'] as const;

/** The application, ready to `listen()` or `inject()`. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, db } = options;
  const log = options.logger ?? pino({ level: config.logLevel });
  const areas = new Areas(allAreas(), config.disabledAreas);
  const urls = siteUrls(config, areas.postTypes);
  const ctx: AppContext = {
    db,
    config,
    urls,
    log,
    options: new Options(db, { ...SITE_DEFAULTS, ...areas.settingDefaults() }),
    mailer: options.mailer ?? createMailer(config.smtpUrl, config.mailFrom),
    now: options.now ?? (() => new Date()),
    areas,
    roles: new RoleTable(areas),
    jobs: new Jobs(() => ctx, options.jobs),
  };

  // ---- Routes: core (`/`, `/batch/v1`), then every namespace of the enabled areas with its index
  // route. The table is rebuilt when an area is switched on or off.
  let dispatcher: Dispatcher<AppContext> | undefined;
  let table: { generation: number; registry: Registry; discovery: Discovery } | undefined;
  const current = () => {
    if (table?.generation !== areas.generation) {
      const registry = new Registry(
        [siteIndexRoute(getDiscovery, siteInfo), batchRoute(() => dispatcher!)],
        areas.namespaces(NAMESPACE_ORDER),
        (ns) => namespaceIndexRoute(ns, getDiscovery),
      );
      table = { generation: areas.generation, registry, discovery: new Discovery(registry, urls.apiRoot, () => ctx.now()) };
    }
    return table;
  };
  const getDiscovery = () => current().discovery;
  const siteInfo = async () => {
    const o = await ctx.options.getMany(SITE_HEAD);
    return {
      head: {
        name: String(o.blogname),
        description: String(o.blogdescription),
        url: urls.home,
        home: urls.home,
        gmt_offset: String(o.gmt_offset),
        timezone_string: String(o.timezone_string),
        page_for_posts: Number(o.page_for_posts),
        page_on_front: Number(o.page_on_front),
        show_on_front: String(o.show_on_front),
      },
      authentication: applicationPasswordsAvailable(config)
        ? { 'application-passwords': { endpoints: { authorization: `${urls.admin}authorize-application.php` } } }
        : [],
      tail: { site_logo: 0, site_icon: 0, site_icon_url: '', _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] } },
    };
  };
  await syncAreaState(ctx);
  current(); // a bad declaration fails the boot
  // CASE: a value the database cannot hold (an ID beyond 32 bits on PostgreSQL, an over-long name) is
  // the client's mistake: 400, not 500. A database that cannot serve now (restarting, unreachable,
  // read-only, full) is nobody's mistake: 503 with Retry-After; the request may be sent again.
  const classify = (err: unknown) => {
    if (isClientDataError(err)) return CoreErrors.valueOutOfRange();
    if (isDatabaseUnavailable(err)) {
      log.warn({ err: { message: (err as Error).message, code: (err as { code?: unknown }).code } }, 'database unavailable');
      return CoreErrors.unavailable(RETRY_AFTER_SECONDS);
    }
    return undefined;
  };
  dispatcher = new Dispatcher<AppContext>(() => current().registry, ctx, log, classify, (req) => checkApiGates(req, ctx), () => ctx.now());

  // ---- HTTP host. Every error it raises itself has the REST shape (http/edge-errors.ts).
  const edge = { apiRoot: urls.apiRoot, bodyLimit: config.bodyLimit, classify };
  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    // Every GET page answers HEAD too (the REST host declares its own HEAD).
    exposeHeadRoutes: true,
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: false, querystringParser: (s: string) => parsePhpQuery(s) },
    genReqId: () => crypto.randomUUID(),
    childLoggerFactory: lazyChildLogger,
    frameworkErrors: edgeFrameworkErrors(edge),
    clientErrorHandler: edgeClientErrorHandler(log as unknown as FastifyBaseLogger),
    // Requests arriving while the server drains get the REST-shaped 503 of the hook below.
    return503OnClosing: false,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // Multipart bodies are only flagged here; the REST host reads them after authentication (http/multipart.ts).
  await app.register(multipart, { limits: { fileSize: config.bodyLimit } });

  // The hooks every request runs take callbacks, not promises: no promise and no extra turn of the
  // microtask queue per hook on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    log[level]({ reqId: request.id, method: request.method, url: redactUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });

  app.setErrorHandler(edgeErrorHandler(edge));
  app.setNotFoundHandler(edgeNotFound(edge));

  // Pages outside the API and the admin pass the areas' page gates (e.g. the shop's coming-soon mode).
  // Media files are served whatever the site's gates say, as a web server serves the uploads folder.
  const ungated = [config.apiPath, config.adminPath, '/openapi.json', '/health', '/ready', UPLOADS_PATH.slice(0, -1)];
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A kept-alive connection whose request was under way when the drain began closes after its
  // answer; otherwise it would hold the server open until the keep-alive timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  const ungatedTrees = ungated.map((p) => `${p}/`);
  const isUngated = (path: string) => ungated.includes(path) || ungatedTrees.some((p) => path.startsWith(p));
  const pageGates = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await checkPageGates(request, ctx);
    if (answer) return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
  // After the area state is current: page gates for pages outside the API and the admin.
  const gate = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    const url = request.url;
    const q = url.indexOf('?');
    if (isUngated(q === -1 ? url : url.slice(0, q)) || 'rest_route' in ((request.query ?? {}) as object)) return done();
    pageGates(request, reply).then((sent) => sent === undefined && done(), done);
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      const wire = errorWire(CoreErrors.shuttingDown());
      reply.code(wire.status).headers({ ...restHeaders(urls.apiRoot, request.headers.origin, true), ...wire.headers, Connection: 'close' }).send(wire.body);
      return;
    }
    // A database that cannot answer keeps the areas as they were: /health stays up, and the request
    // itself answers 503 where it needs the database.
    const syncing = syncAreaState(ctx);
    if (!syncing) return gate(request, reply, done);
    syncing.then(
      () => gate(request, reply, done),
      (err: unknown) => (isDatabaseUnavailable(err) ? gate(request, reply, done) : done(err as Error)),
    );
  });

  const authenticator = createAuthenticator(ctx);
  registerRestHost(app, { apiPath: config.apiPath, apiRoot: urls.apiRoot, bodyLimit: config.bodyLimit, dispatcher, discovery: getDiscovery, authenticator, home: (req, reply) => serveHomePage(ctx, req, reply) });
  await registerAdminPages(app, ctx, { authenticator, dispatcher });
  registerHealthRoutes(app, ctx);
  registerPostPages(app, ctx);
  registerUploads(app, ctx);

  // ---- Area pages, each in its own scope that answers 404 while the area is off.
  const host: PageHost = { ctx, authenticator, dispatcher };
  for (const area of areas.all) {
    const pages = area.pages;
    if (!pages) continue;
    await app.register(async (scope) => {
      scope.addHook('onRequest', async (_request, reply) => {
        if (!areas.isEnabled(area.id)) return reply.callNotFound();
      });
      await pages(scope, host);
    });
  }

  let openapi: { generation: number; text: string } | undefined;
  app.get('/openapi.json', async (_request, reply) => {
    const { generation, registry } = current();
    if (openapi?.generation !== generation) {
      openapi = { generation, text: JSON.stringify(openApiDocument(registry, urls.apiRoot, { title: 'eventsuite', version: APP_VERSION }, ctx.now())) };
    }
    return reply.type('application/json; charset=UTF-8').header('Access-Control-Allow-Origin', '*').send(openapi.text);
  });

  const stopInvalidation = await startInvalidation(ctx);
  app.addHook('onClose', async () => {
    await stopInvalidation();
    await ctx.jobs.stop();
    ctx.mailer.close();
  });

  return Object.defineProperties(app as FastifyInstance, {
    ctx: { value: ctx },
    dispatcher: { value: dispatcher },
    registry: { get: () => current().registry },
  }) as App;
}

