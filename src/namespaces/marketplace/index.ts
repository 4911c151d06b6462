/**
 * @module namespaces/marketplace
 * The marketplace part of `shop/v3` (the original's `wc/v3/marketplace/*`): featured extensions,
 * subscriptions of the connected marketplace account merged with this product's areas as the
 * installed products, connecting and activating them, install URLs and orders.
 */
import { defineArea } from '../../area.js';
import { defineRoutes } from '../../rest/route.js';
import { marketplaceRouteDefs } from './marketplace.routes.js';

export const marketplaceRoutes = defineRoutes('shop/v3', [...marketplaceRouteDefs]);

export const marketplaceArea = defineArea({
  id: 'marketplace',
  title: 'Marketplace',
  description: 'Extensions from the marketplace: subscriptions, connections, installs and activation.',
  namespaces: [marketplaceRoutes],
});
