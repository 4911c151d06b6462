/**
 * @module namespaces/event-import
 * The event import area: `eventsuite/event-aggregator/v1` (the remote import service's batch and
 * state callbacks), import records, the importers that run here (iCalendar, CSV, URLs on a schedule)
 * all feeding one import service, and the `eventsuite import` commands.
 */
import { defineArea } from '../../area.js';
import { importRoutes } from './batch.routes.js';
import { importJobs } from './jobs.js';

export const eventImportArea = defineArea({
  id: 'event-import',
  title: 'Event import',
  description: 'Imports events from iCalendar and CSV files, URLs on a schedule, and the remote import service’s batches.',
  requires: ['events'],
  namespaces: [importRoutes],
  settings: {
    import_batch_interval: { default: 10, description: 'Seconds the remote import service waits between batches (10–600).' },
  },
  jobs: importJobs,
});

export { IMPORT_NS, importRoutes } from './batch.routes.js';
export { runImportCommand, IMPORT_USAGE, type ImportCommandIo } from './cli.js';
export { applyItems } from './import.service.js';
export { runDueImports, resumeInterrupted, RUN_DUE_JOB, RUN_RECORD_JOB } from './jobs.js';
