/**
 * @module namespaces/mailing-list/list-data-mapper
 * A sign-up's fields as the list service takes them, per list (the original's
 * `MC4WP_List_Data_Mapper::map_list`, after its `mc4wp_form_data` filters):
 *
 * - merge fields: only the list's own (by tag), non-empty, formatted for their type;
 * - `INTERESTS`: interest ids as keys (`INTERESTS[id]=1`, `false`/`0` is off), as values
 *   (`INTERESTS[]=id`), or under a category id (`INTERESTS[cat]=id|Name`, a list too) by id or name;
 * - `MARKETING_PERMISSIONS`: ids or texts, a list or comma text;
 * - `MC_LANGUAGE`: the subscriber's language;
 * - `NAME` fills `FNAME`/`LNAME` when both are empty, and `FNAME` + `LNAME` fill an empty `NAME`.
 */
import { phpTrim, phpTruthy } from '../../rest/php-builtins.js';
import { isPhpNumeric, phpString } from '../../rest/php-query.js';
import { boolean, formatterFor, language, phpJoin, SignupFatalError } from './field-formatter.js';
import type { InterestCategory, MarketingPermission, MergeField } from './list-facts.js';

/** A member's data for one list, before the form's status, e-mail type, address and tags are added. */
export interface MappedSubscriber {
  email_address: string;
  interests: Record<string, boolean>;
  merge_fields: Record<string, unknown>;
  language?: string;
  marketing_permissions: { marketing_permission_id: string; enabled: true }[];
}

/** Reads a list's facts when the mapping needs them (interests and permissions only when posted). */
export interface ListFactsSource {
  mergeFields(): Promise<MergeField[]>;
  interestCategories(): Promise<InterestCategory[]>;
  marketingPermissions(): Promise<MarketingPermission[]>;
}

type Data = Record<string, unknown>;

const isMap = (v: unknown): v is Data | unknown[] => v !== null && typeof v === 'object';
const valuesOf = (v: Data | unknown[]): unknown[] => (Array.isArray(v) ? v : Object.values(v));

/** PHP `isset($list[$key])` for a posted list or map. */
function entry(container: Data | unknown[], key: string): unknown {
  if (Array.isArray(container)) return /^(?:0|[1-9]\d*)$/.test(key) ? container[Number(key)] : undefined;
  return Object.hasOwn(container, key) ? container[key] : undefined;
}

/** PHP 8 `==` of an id with a posted value: numeric texts compare as numbers, a list never matches. */
function looseEquals(id: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return isPhpNumeric(id) && isPhpNumeric(value) ? Number(id) === Number(value) : id === value;
}

/** `trim()` of a posted value; PHP 8 stops with a TypeError on a list. */
function trimmed(value: unknown, what: string): string {
  if (isMap(value)) throw new SignupFatalError(`trim(): ${what} is a list`);
  return phpTrim(phpString(value));
}

/** `mc4wp_add_name_data`: NAME split at its first space into FNAME and LNAME, or made of them. */
export function withNameData(data: Data): Data {
  const out = { ...data };
  if (phpTruthy(out.NAME) && !phpTruthy(out.FNAME) && !phpTruthy(out.LNAME)) {
    const name = trimmed(out.NAME, 'NAME');
    out.NAME = name;
    const space = name.indexOf(' ');
    if (space >= 0) {
      out.FNAME = phpTrim(name.slice(0, space));
      out.LNAME = phpTrim(name.slice(space));
    } else {
      out.FNAME = name;
    }
  }
  if (!phpTruthy(out.NAME) && phpTruthy(out.FNAME) && phpTruthy(out.LNAME)) out.NAME = `${phpString(out.FNAME)} ${phpString(out.LNAME)}`;
  return out;
}

/** `format_merge_field_value`: a list given to a text field is joined with commas; typed fields go through their formatter. */
function formatMergeFieldValue(field: MergeField, value: unknown, now: Date): unknown {
  const type = field.type.toLowerCase();
  let formatted = isMap(value) && type === 'text' ? phpJoin(', ', value) : value;
  const format = formatterFor(type);
  if (format) formatted = format(formatted, field.options, now);
  return formatted;
}

async function mapInterests(posted: unknown, facts: ListFactsSource): Promise<Record<string, boolean>> {
  const interests: Record<string, boolean> = {};
  for (const category of await facts.interestCategories()) {
    for (const [id, name] of category.interests) {
      // CASE: PHP 8's in_array() stops with a TypeError when INTERESTS is text, not a list.
      if (!isMap(posted)) throw new SignupFatalError('in_array(): INTERESTS is text');
      const byId = entry(posted, id);
      if (byId !== undefined) interests[id] = boolean(byId);
      if (valuesOf(posted).some((v) => looseEquals(id, v))) interests[id] = true;
      const inCategory = entry(posted, category.id);
      if (inCategory !== undefined) {
        const values = isMap(inCategory) ? valuesOf(inCategory) : phpString(inCategory).split('|').map((v) => phpTrim(v));
        if (values.some((v) => looseEquals(id, v)) || values.includes(name)) interests[id] = true;
      }
    }
  }
  return interests;
}

async function mapMarketingPermissions(posted: unknown, facts: ListFactsSource): Promise<MappedSubscriber['marketing_permissions']> {
  const values = (isMap(posted) ? valuesOf(posted) : phpString(posted).split(',')).map((v) => trimmed(v, 'a marketing permission'));
  const chosen: MappedSubscriber['marketing_permissions'] = [];
  for (const p of await facts.marketingPermissions()) {
    if (values.includes(p.marketing_permission_id) || values.includes(p.text)) chosen.push({ marketing_permission_id: p.marketing_permission_id, enabled: true });
  }
  return chosen;
}

/** `map_list`: the member data for one list. `data` has upper-case keys and an EMAIL. */
export async function mapSubscriber(data: Data, facts: ListFactsSource, now: Date): Promise<MappedSubscriber> {
  const subscriber: MappedSubscriber = { email_address: phpString(data.EMAIL), interests: {}, merge_fields: {}, marketing_permissions: [] };
  for (const field of await facts.mergeFields()) {
    if (field.tag === 'EMAIL') continue;
    // empty(): a blank field never overwrites what the service holds.
    const value = Object.hasOwn(data, field.tag) ? data[field.tag] : undefined;
    if (!phpTruthy(value)) continue;
    subscriber.merge_fields[field.tag] = formatMergeFieldValue(field, value, now);
  }
  if (phpTruthy(data.INTERESTS)) subscriber.interests = await mapInterests(data.INTERESTS, facts);
  if (phpTruthy(data.MARKETING_PERMISSIONS)) subscriber.marketing_permissions = await mapMarketingPermissions(data.MARKETING_PERMISSIONS, facts);
  if (phpTruthy(data.MC_LANGUAGE)) subscriber.language = language(data.MC_LANGUAGE);
  return subscriber;
}
