/**
 * @module namespaces/shop-admin/mobile-app.routes
 * `mobile-app/send-magic-link` (a one-time sign-in link for the mobile app, see
 * `mobile-app.service.ts`) and `mobile-app`, the index of this resource.
 */
import type { AppContext } from '../../app-context.js';
import { READABLE, type RouteDef } from '../../rest/route.js';
import { canViewShop } from './access.js';
import { sendMagicLink } from './mobile-app.service.js';

export const mobileAppRouteDefs: RouteDef<AppContext>[] = [
  { path: '/mobile-app/send-magic-link', endpoints: [{ methods: READABLE, permission: canViewShop, handler: sendMagicLink }] },
  {
    path: '/mobile-app',
    endpoints: [
      {
        methods: READABLE,
        permission: canViewShop,
        handler: (_req, ctx) => [
          { slug: 'send-magic-link', description: 'E-mails you a one-time link that signs the mobile app in.', _links: { self: [{ href: ctx.urls.rest('/shop-admin/mobile-app/send-magic-link') }] } },
        ],
      },
    ],
  },
];
