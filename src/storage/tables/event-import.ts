/**
 * @module storage/tables/event-import
 * Tables of the event import area (migration 2026-11-23T1500): import records (the original's
 * `tribe-ea-record` posts), which event each origin item became, and the claims that make an
 * interrupted import resumable without duplicates.
 */

/** One import: a one-off run, a scheduled parent, or a remote import waiting for batches. */
export interface ImportRecordsTable {
  /** The import id: word characters (`\w+`). */
  id: string;
  /** `ics`, `csv`, `url` (an .ics URL), `remote` (the remote service pushes batches). */
  origin: string;
  /** File path, URL, or '' for remote imports. */
  source: string;
  /** `on_demand`, `hourly`, `daily`, `weekly`. */
  frequency: string;
  /** `draft`, `schedule`, `pending`, `success`, `failed`. */
  status: string;
  /** The scheduled record a run belongs to, or null. */
  parent_id: string | null;
  /** The one-time hash the next batch must carry; null when none is expected. */
  next_batch_hash: string | null;
  percentage_complete: number;
  total_events: number;
  /** JSON activity: `{ tribe_events: {created, updated, skipped, scheduled}, … }`. */
  activity: string;
  /** Last error text and slug (failed records). */
  message: string;
  message_slug: string;
  /** Consecutive failed runs of a scheduled record (backoff). */
  failures: number;
  /** When a scheduled record runs next (UTC `YYYY-MM-DD HH:MM:SS`), or null. */
  next_run_gmt: string | null;
  created_gmt: string;
  updated_gmt: string;
}

/** Which event an origin item became, with the fields it was last imported with. */
export interface ImportOriginIdsTable {
  /** The origin's unique id: iCalendar UID (`UID#RECURRENCE-ID` for occurrences), service `global_id`, CSV row key. */
  origin_id: string;
  post_id: number;
  /** JSON of the imported fields (compared on the next import). */
  fields: string;
  record_id: string;
  imported_gmt: string;
}

/** An item being created right now: left behind only by a crash, then used to adopt the event instead of duplicating it. */
export interface ImportClaimsTable {
  origin_id: string;
  record_id: string;
  claimed_gmt: string;
}

export interface EventImportTables {
  import_records: ImportRecordsTable;
  import_origin_ids: ImportOriginIdsTable;
  import_claims: ImportClaimsTable;
}
