/**
 * @module storage/tables/integrations
 * Tables of the integration namespaces (contact forms, spam filter, shop, SEO, connector).
 */

// Integration areas declare their tables here.
export interface IntegrationTables {}
