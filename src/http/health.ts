/**
 * @module http/health
 * Probes for orchestrators and load balancers, outside the API root: `GET /health` (liveness: the
 * process answers) and `GET /ready` (the database answers and its schema is current). Neither needs
 * credentials nor tells more than ok / not ok and why.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { pendingMigrations } from '../storage/migrate.js';

const HEADERS = { 'Cache-Control': 'no-store', 'Content-Type': 'application/json; charset=UTF-8' };

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Once current, the schema stays current for this process (migrations run before it starts).
  let schemaCurrent = false;

  app.get('/health', async (_request, reply) => reply.code(200).headers(HEADERS).send({ status: 'ok' }));

  app.get('/ready', async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
    } catch {
      return reply.code(503).headers({ ...HEADERS, 'Retry-After': '5' }).send({ status: 'unavailable', database: 'unreachable' });
    }
    if (!schemaCurrent) {
      const pending = await pendingMigrations(ctx.db).catch(() => ['(unreadable)']);
      if (pending.length > 0) return reply.code(503).headers({ ...HEADERS, 'Retry-After': '5' }).send({ status: 'unavailable', database: 'ok', migrations: 'pending' });
      schemaCurrent = true;
    }
    return reply.code(200).headers(HEADERS).send({ status: 'ok', database: 'ok', migrations: 'current' });
  });
}
