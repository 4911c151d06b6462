/**
 * @module namespaces/shop-admin/launch.routes
 * Launch your store routes: start coming-soon mode, the launch survey and the test orders.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { CREATABLE, DELETABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { countTestOrders, deleteTestOrders } from '../tickets/index.js';
import { canLaunchStore } from './access.js';
import { COMING_SOON_OPTION, PRIVATE_LINK_OPTION, SHARE_KEY_OPTION, STORE_PAGES_ONLY_OPTION, SURVEY_OPTION } from './launch.service.js';

async function initializeComingSoon(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const fresh = (await ctx.db.selectFrom('posts').select('id').where('type', '=', 'tribe_events').where('status', '=', 'publish').limit(1).executeTakeFirst()) === undefined;
  await ctx.options.set(COMING_SOON_OPTION, 'yes');
  await ctx.options.set(STORE_PAGES_ONLY_OPTION, fresh ? 'no' : 'yes');
  if ((await ctx.options.get<string | undefined>(PRIVATE_LINK_OPTION, undefined)) === undefined) await ctx.options.set(PRIVATE_LINK_OPTION, 'no');
  if (!(await ctx.options.get<string>(SHARE_KEY_OPTION, ''))) await ctx.options.set(SHARE_KEY_OPTION, crypto.randomBytes(16).toString('hex'));
  return true;
}

export const launchRouteDefs: RouteDef<AppContext>[] = [
  { path: '/launch-your-store/initialize-coming-soon', endpoints: [{ methods: CREATABLE, permission: canLaunchStore, handler: initializeComingSoon }] },
  {
    path: '/launch-your-store/update-survey-status',
    endpoints: [
      {
        methods: CREATABLE,
        args: { status: { description: 'Survey status.', type: 'string', enum: ['yes', 'no'] } },
        permission: canLaunchStore,
        handler: async (req, ctx) => {
          if (req.has('status')) await ctx.options.set(SURVEY_OPTION, req.params.status);
          return null;
        },
      },
    ],
  },
  { path: '/launch-your-store/survey-completed', endpoints: [{ methods: READABLE, permission: canLaunchStore, handler: async (_req, ctx) => String(await ctx.options.get(SURVEY_OPTION, 'no')) }] },
  { path: '/launch-your-store/payments/test-orders/count', endpoints: [{ methods: READABLE, permission: canLaunchStore, handler: async (_req, ctx) => ({ count: await countTestOrders(ctx) }) }] },
  {
    path: '/launch-your-store/payments/test-orders',
    endpoints: [
      {
        methods: DELETABLE,
        permission: canLaunchStore,
        handler: async (_req, ctx) => {
          await deleteTestOrders(ctx);
          return respond(null, { status: 204 });
        },
      },
    ],
  },
];
