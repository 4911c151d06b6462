/**
 * @module storage/tables/forms
 * Tables of the spam filter, contact forms and mailing list areas (migrations 2026-11-23T1400–T1420,
 * 2026-11-29T0600).
 * Forms of both kinds are posts (one ID sequence); these tables hold what the originals keep in post meta.
 */
import type { ColumnType, Generated } from 'kysely';

/** One spam check: the verdict given, and what an administrator or the remote service said later. */
export interface SpamfilterChecksTable {
  id: Generated<number>;
  /** Public id of the check (the remote service's `X-akismet-guid`, or a local UUID). */
  guid: string;
  /** Who asked: `contact-form`, `mailinglist`, … */
  source: string;
  /** `spam` or `ham`. */
  verdict: string;
  /** `local` (built-in classifier) or `remote`. */
  via: string;
  /** Later correction (`spam`/`ham`) or null. */
  actual: string | null;
  /** JSON of the checked fields (kept to train the classifier when corrected). */
  fields: string;
  /** SHA-256 of who sent it (signed-in user, else e-mail, name and URL); `''` when unknown. */
  sender: ColumnType<string, string | undefined, string>;
  created_gmt: string;
}

/** Token counts of the built-in classifier; token `''` holds the document counts. */
export interface SpamfilterTokensTable {
  token: string;
  spam: number;
  ham: number;
}

/** A contact form's properties (the original's `_form`, `_mail`, … post meta). */
export interface ContactFormsTable {
  post_id: number;
  locale: string;
  /** sha256 hex made once at creation. */
  hash: string;
  form: string;
  /** JSON objects. */
  mail: string;
  mail_2: string;
  messages: string;
  additional_settings: string;
}

export interface ContactFormSubmissionsTable {
  id: Generated<number>;
  form_id: number;
  status: string;
  /** JSON object of the posted fields. */
  fields: string;
  remote_ip: string;
  user_agent: string;
  user_id: number;
  /** Guid of the spam check, '' when none ran. */
  spam_guid: string;
  created_gmt: string;
}

/** A mailing-list sign-up form's settings (the original's `mc4wp-form` post meta). */
export interface MailinglistFormsTable {
  post_id: number;
  /** JSON array of list ids. */
  lists: string;
  double_optin: number;
  update_existing: number;
  /** Comma list of required field names. */
  required_fields: string;
  /** JSON object of message overrides. */
  messages: string;
  redirect: string;
  /** With `update_existing`: the member's interest groups not chosen now are switched off (migration 2026-11-29T0500). */
  replace_interests: number;
  /** Comma list of tags given to the member. */
  subscriber_tags: string;
  /** Comma list of tags taken off the member. */
  remove_subscriber_tags: string;
}

/** The local subscriber list (used when no remote list service is configured). */
export interface MailinglistSubscribersTable {
  id: Generated<number>;
  list_id: string;
  email: string;
  /** JSON object of merge fields. */
  fields: string;
  /** `pending`, `subscribed` or `unsubscribed`. */
  status: string;
  created_gmt: string;
  updated_gmt: string;
}

/** The list service's merge fields, interest groups and marketing permissions of a list, kept a day. */
export interface MailinglistListCacheTable {
  list_id: string;
  /** `merge-fields`, `interest-categories` or `marketing-permissions`. */
  kind: string;
  /** JSON. */
  value: string;
  expires_gmt: string;
}

export interface FormTables {
  spamfilter_checks: SpamfilterChecksTable;
  spamfilter_tokens: SpamfilterTokensTable;
  contact_forms: ContactFormsTable;
  contact_form_submissions: ContactFormSubmissionsTable;
  mailinglist_forms: MailinglistFormsTable;
  mailinglist_subscribers: MailinglistSubscribersTable;
  mailinglist_list_cache: MailinglistListCacheTable;
}
