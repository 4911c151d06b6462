/**
 * @module storage/schema
 * The `Database` interface Kysely is typed with: one table interface per table, grouped by area in
 * `tables/`. Row, insert and update types come from Kysely's Selectable/Insertable/Updateable.
 */
import type { CoreTables } from './tables/core.js';
import type { EventImportTables } from './tables/event-import.js';
import type { EventTables } from './tables/events.js';
import type { FormTables } from './tables/forms.js';
import type { IntegrationTables } from './tables/integrations.js';
import type { JobTables } from './tables/jobs.js';
import type { SeoTables } from './tables/seo.js';
import type { ShopAdminTables } from './tables/shop-admin.js';
import type { TicketTables } from './tables/tickets.js';

/** One line per area's tables, so areas added side by side merge cleanly. */
export interface Database
  extends CoreTables,
    EventTables,
    EventImportTables,
    TicketTables,
    IntegrationTables,
    JobTables,
    ShopAdminTables,
    FormTables,
    SeoTables {}
