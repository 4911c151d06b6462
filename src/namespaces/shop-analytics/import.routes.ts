/**
 * @module namespaces/shop-analytics/import.routes
 * `reports/import` and its siblings (`cancel`, `delete`, `status`, `totals`), answering the
 * original's `{status, message}` envelope (HTTP 200 either way).
 */
import type { AppContext } from '../../app-context.js';
import { CREATABLE, EDITABLE, READABLE, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canManageImport } from './common.js';
import { cancelImport, deleteReportData, IMPORT_MESSAGES, importState, importTotals, startImport } from './import.service.js';

const IMPORT_ARGS: Record<string, ArgSchema> = {
  days: { description: 'Number of days to import.', type: 'integer', minimum: 0 },
  skip_existing: { description: 'Skip importing existing order data.', type: 'boolean', default: false },
};

const daysOf = (req: RestRequest) => (req.has('days') && Number(req.params.days) > 0 ? Number(req.params.days) : null);

async function importItems(req: RestRequest, ctx: AppContext) {
  const error = await startImport(ctx, daysOf(req), req.params.skip_existing === true);
  return error ? { status: 'error', message: error } : { status: 'success', message: IMPORT_MESSAGES.scheduled };
}

async function status(_req: RestRequest, ctx: AppContext) {
  const s = await importState(ctx);
  return { is_importing: s.status === 'importing', customers: s.customers, orders: s.orders, imported_from: s.importedFrom || null };
}

export const importRouteDefs: RouteDef<AppContext>[] = [
  { path: '/reports/import', endpoints: [{ methods: EDITABLE, args: IMPORT_ARGS, permission: canManageImport, handler: importItems }] },
  {
    path: '/reports/import/cancel',
    endpoints: [{ methods: CREATABLE, args: {}, permission: canManageImport, handler: async (_req, ctx) => (await cancelImport(ctx), { status: 'success', message: IMPORT_MESSAGES.cancelled }) }],
  },
  {
    path: '/reports/import/delete',
    endpoints: [{ methods: CREATABLE, args: {}, permission: canManageImport, handler: async (_req, ctx) => (await deleteReportData(ctx), { status: 'success', message: IMPORT_MESSAGES.deleted }) }],
  },
  { path: '/reports/import/status', endpoints: [{ methods: READABLE, args: {}, permission: canManageImport, handler: status }] },
  { path: '/reports/import/totals', endpoints: [{ methods: READABLE, args: IMPORT_ARGS, permission: canManageImport, handler: async (req, ctx) => importTotals(ctx, daysOf(req), req.params.skip_existing === true) }] },
];
