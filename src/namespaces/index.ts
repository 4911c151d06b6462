/**
 * @module namespaces
 * Every namespace of the interface, in the order the discovery document lists them. A namespace
 * without implemented routes still answers its index route.
 */
import { defineRoutes, type NamespaceRoutes } from '../rest/route.js';
import { oembedRoutes } from './oembed/index.js';
import { eventRoutes } from './events/index.js';
import { ticketRoutes } from './tickets/index.js';
import { coreRoutes } from './core/index.js';

/** Namespaces the interface lists whose routes it does not show: only their index route exists. */
const indexOnly = (namespace: string): NamespaceRoutes => defineRoutes(namespace, []);

/** All namespaces in discovery order. */
export function allNamespaces(): NamespaceRoutes[] {
  return [
    oembedRoutes,
    indexOnly('spamfilter/v1'),
    indexOnly('contact-form/v1'),
    indexOnly('shop/v3'),
    indexOnly('seo/v1'),
    ticketRoutes,
    indexOnly('eventsuite/event-aggregator/v1'),
    eventRoutes,
    indexOnly('eventsuite/views/v2'),
    indexOnly('calendar/v2/onboarding'),
    indexOnly('connector/v4'),
    indexOnly('mailinglist/v1'),
    indexOnly('shop-admin'),
    indexOnly('shop-analytics'),
    indexOnly('shop/store'),
    indexOnly('shop/store/v1'),
    indexOnly('shop/private'),
    indexOnly('shop/v2'),
    indexOnly('pagebuilder/v1/documents'),
    indexOnly('pagebuilder/v1'),
    indexOnly('pagebuilder-ai/v1'),
    indexOnly('shop/v1'),
    indexOnly('shop-admin-email'),
    indexOnly('shop-telemetry'),
    indexOnly('shopmarket-site/v3'),
    coreRoutes,
    indexOnly('core-site-health/v1'),
    indexOnly('core-block-editor/v1'),
    indexOnly('core-abilities/v1'),
  ];
}
