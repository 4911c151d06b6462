/**
 * @module namespaces/event-import
 * The event import area: `eventsuite/event-aggregator/v1` (the remote import service's batch and
 * state callbacks), import records, the importers that run here (iCalendar, CSV, URLs on a schedule)
 * all feeding one import service, and the `eventsuite import` commands.
 */
import { defineArea } from '../../area.js';
import { importRoutes } from './batch.routes.js';
import { importJobs, RUN_DUE_JOB } from './jobs.js';

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
  // Scheduled URL imports: each minute the runner checks which are due (their own hourly/daily/weekly times and backoff).
  schedules: [{ name: RUN_DUE_JOB, kind: RUN_DUE_JOB, every: '1m' }],
});

export { IMPORT_NS, importRoutes } from './batch.routes.js';
export { runImportCommand, IMPORT_USAGE, type ImportCommandIo } from './cli.js';
export { applyItems } from './import.service.js';
export { runDueImports, resumeInterrupted, RUN_DUE_JOB, RUN_RECORD_JOB } from './jobs.js';
