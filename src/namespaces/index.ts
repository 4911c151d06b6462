/**
 * @module namespaces
 * Every area of the product, in mounting order, and the order the discovery document lists their
 * namespaces in. Adding an area is one line here; see `docs/areas.md`.
 */
import { defineArea, type AreaDef } from '../area.js';
import { defineRoutes, type NamespaceRoutes } from '../rest/route.js';
import { connectorArea } from './connector/index.js';
import { contactFormsArea } from './contact-forms/index.js';
import { coreArea } from './core/index.js';
import { eventsArea } from './events/index.js';
import { mailingListArea } from './mailing-list/index.js';
import { eventImportArea } from './event-import/index.js';
import { calendarViewsArea } from './calendar-views/index.js';
import { onboardingArea } from './onboarding/index.js';
import { oembedArea } from './oembed/index.js';
import { seoArea } from './seo/index.js';
import { shopAdminArea } from './shop-admin/index.js';
import { spamfilterArea } from './spamfilter/index.js';
import { ticketsArea } from './tickets/index.js';
import { shopAnalyticsArea } from './shop-analytics/index.js';
import { marketplaceArea } from './marketplace/index.js';

/** Namespaces in the order the originals' discovery document lists them. */
export const NAMESPACE_ORDER: readonly string[] = Object.freeze([
  'oembed/1.0',
  'spamfilter/v1',
  'contact-form/v1',
  'shop/v3',
  'seo/v1',
  'eventsuite/tickets/v1',
  'eventsuite/event-aggregator/v1',
  'eventsuite/events/v1',
  'eventsuite/views/v2',
  'calendar/v2/onboarding',
  'connector/v4',
  'mailinglist/v1',
  'shop-admin',
  'shop-analytics',
  'shop/store',
  'shop/store/v1',
  'shop/private',
  'shop/v2',
  'pagebuilder/v1/documents',
  'pagebuilder/v1',
  'pagebuilder-ai/v1',
  'shop/v1',
  'shop-admin-email',
  'shop-telemetry',
  'shopmarket-site/v3',
  'core/v2',
  'core-site-health/v1',
  'core-block-editor/v1',
  'core-abilities/v1',
]);

/** A namespace the interface lists without showing its routes: only its index route exists. */
const indexOnly = (namespace: string): NamespaceRoutes => defineRoutes(namespace, []);

/**
 * The namespaces the interface lists that no area implements: they answer their index route only.
 * Derived, so an area that implements a namespace simply declares it.
 */
function placeholderArea(areas: readonly AreaDef[]): AreaDef {
  const owned = new Set(areas.flatMap((area) => area.namespaces.map((ns) => ns.namespace)));
  return defineArea({
    id: 'site',
    title: 'Site',
    description: 'Namespaces the interface lists without routes of their own.',
    required: true,
    namespaces: NAMESPACE_ORDER.filter((ns) => !owned.has(ns)).map(indexOnly),
  });
}

/** Every area, in mounting order (an area comes after the areas it requires). */
export function allAreas(): AreaDef[] {
  const areas = [
    coreArea,
    oembedArea,
    eventsArea,
    ticketsArea,
    eventImportArea,
    shopAdminArea,
    shopAnalyticsArea,
    marketplaceArea,
    spamfilterArea,
    contactFormsArea,
    mailingListArea,
    seoArea,
    connectorArea,
    calendarViewsArea,
    onboardingArea,
  ];
  return [...areas, placeholderArea(areas)];
}
