/**
 * @module remote/mailinglist-client
 * A client for a list service speaking the Mailchimp Marketing API v3, at `REMOTE_MAILINGLIST_URL`
 * (`config.remotes.mailinglist`; the original service is `https://<dc>.api.mailchimp.com`, the data
 * centre being the API key's suffix). HTTP Basic authentication with the API key; JSON both ways;
 * the calls the original plugin makes (`MC4WP_API_V3`), a member named by the MD5 of its lower-cased
 * address:
 *
 * - `GET  /3.0/lists/{list}/members/{hash}` → the member, undefined when the list lacks it (404)
 * - `POST /3.0/lists/{list}/members` with `{email_address, status, merge_fields, interests, …}`
 * - `PATCH /3.0/lists/{list}/members/{hash}` with the fields to change
 * - `POST /3.0/lists/{list}/members/{hash}/tags` with `{tags: [{name, status}]}`
 * - `GET  /3.0/lists/{list}/merge-fields`, `/interest-categories`, `/interest-categories/{id}/interests`
 *   and `/members` (one member, for the list's marketing permissions)
 *
 * Failures carry the original plugin's numeric codes: 1 for a missing key, 0 when the service cannot
 * be reached, else the HTTP status the service answered.
 */
import crypto from 'node:crypto';

export const MAILINGLIST_TIMEOUT_MS = 20_000;

export class MailinglistApiError extends Error {
  constructor(
    message: string,
    /** 1 = no API key, 0 = connection failure, else the HTTP status. */
    readonly code: number,
  ) {
    super(message);
    this.name = 'MailinglistApiError';
  }
}

export interface ListMember {
  id?: string;
  email_address?: string;
  status?: string;
  interests?: Record<string, boolean>;
  [key: string]: unknown;
}

/** A list's merge field as `get_list_merge_fields` asks for it. */
export interface MergeFieldData {
  tag: string;
  name?: string;
  type: string;
  required?: boolean;
  default_value?: unknown;
  options?: Record<string, unknown>;
  public?: boolean;
}

export interface MemberTag {
  name: string;
  status: 'active' | 'inactive';
}

export interface MailinglistClient {
  /** The member, or undefined when the list does not have that address. */
  getMember(listId: string, email: string): Promise<ListMember | undefined>;
  addMember(listId: string, data: Record<string, unknown>): Promise<ListMember>;
  updateMember(listId: string, email: string, data: Record<string, unknown>): Promise<ListMember>;
  updateMemberTags(listId: string, email: string, tags: readonly MemberTag[]): Promise<void>;
  getMergeFields(listId: string): Promise<MergeFieldData[]>;
  getInterestCategories(listId: string): Promise<{ id: string; title?: string; type?: string }[]>;
  getCategoryInterests(listId: string, categoryId: string): Promise<{ id: string; name: string }[]>;
  /** The marketing permissions of the list's first member (the API shows them on members only). */
  getMemberMarketingPermissions(listId: string): Promise<{ marketing_permission_id: string; text: string }[]>;
}

export function memberHash(email: string): string {
  return crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

/** The service's base URL for `apiKey`: the configured endpoint, else the key's data centre. */
export function mailchimpBase(apiKey: string, endpoint?: string): string {
  if (endpoint) return endpoint.replace(/\/+$/, '');
  const dc = /-([a-z]+\d+)$/.exec(apiKey)?.[1] ?? 'us1';
  return `https://${dc}.api.mailchimp.com`;
}

// The query strings the original sends (`add_query_arg` leaves the commas of `fields` as they are;
// a list value is written as `fields[0]`).
const MERGE_FIELDS_QUERY = 'count=100&fields=merge_fields.name,merge_fields.tag,merge_fields.type,merge_fields.required,merge_fields.default_value,merge_fields.options,merge_fields.public';
const CATEGORIES_QUERY = 'count=100&fields=categories.id,categories.title,categories.type';
const INTERESTS_QUERY = 'count=100&fields=interests.id,interests.name';
const PERMISSIONS_QUERY = 'fields%5B0%5D=members.marketing_permissions&count=1';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const recordsOf = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function createMailinglistClient(options: {
  apiKey: string;
  endpoint?: string;
  timeoutMs?: number;
  /** The visitor's `Accept-Language`, passed on as the original does (the service reads the subscriber's language from it). */
  acceptLanguage?: string;
  fetchImpl?: typeof fetch;
}): MailinglistClient {
  const fetchImpl = options.fetchImpl ?? fetch;
  const base = `${mailchimpBase(options.apiKey, options.endpoint)}/3.0`;

  /** The decoded answer; `true` for an empty success (204 No Content), as the original reads it. */
  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<unknown> {
    if (!options.apiKey) throw new MailinglistApiError('Missing API key', 1);
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`mc4wp:${options.apiKey}`).toString('base64')}`,
          accept: 'application/json',
          ...(options.acceptLanguage ? { 'accept-language': options.acceptLanguage } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? MAILINGLIST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (e) {
      throw new MailinglistApiError(`The mailing list service could not be reached: ${e instanceof Error ? e.message : String(e)}`, 0);
    }
    const raw = await res.text();
    let data: unknown;
    try {
      data = raw === '' ? (res.status < 300 ? true : undefined) : JSON.parse(raw);
    } catch {
      data = undefined;
    }
    if (res.status >= 400) {
      const d = isRecord(data) ? data : {};
      const detail = typeof d.detail === 'string' ? d.detail : typeof d.title === 'string' ? d.title : res.statusText;
      throw new MailinglistApiError(`${res.status}: ${detail}`, res.status);
    }
    if (data === undefined || data === null) throw new MailinglistApiError('The mailing list service answered without JSON.', res.status);
    return data;
  }

  const list = (listId: string) => `/lists/${encodeURIComponent(listId)}`;
  const member = (listId: string, email: string) => `${list(listId)}/members/${memberHash(email)}`;
  const asMember = (data: unknown): ListMember => (isRecord(data) ? data : {});
  return {
    async getMember(listId, email) {
      try {
        return asMember(await call('GET', member(listId, email)));
      } catch (e) {
        if (e instanceof MailinglistApiError && e.code === 404) return undefined;
        throw e;
      }
    },
    addMember: async (listId, data) => asMember(await call('POST', `${list(listId)}/members`, data)),
    updateMember: async (listId, email, data) => asMember(await call('PATCH', member(listId, email), data)),
    async updateMemberTags(listId, email, tags) {
      await call('POST', `${member(listId, email)}/tags`, { tags });
    },
    async getMergeFields(listId) {
      const data = await call('GET', `${list(listId)}/merge-fields?${MERGE_FIELDS_QUERY}`);
      return recordsOf(isRecord(data) ? data.merge_fields : undefined)
        .filter((f) => typeof f.tag === 'string')
        .map((f) => ({ ...f, tag: String(f.tag), type: text(f.type) }) as MergeFieldData);
    },
    async getInterestCategories(listId) {
      const data = await call('GET', `${list(listId)}/interest-categories?${CATEGORIES_QUERY}`);
      return recordsOf(isRecord(data) ? data.categories : undefined).map((c) => ({
        id: text(c.id),
        ...(typeof c.title === 'string' ? { title: c.title } : {}),
        ...(typeof c.type === 'string' ? { type: c.type } : {}),
      }));
    },
    async getCategoryInterests(listId, categoryId) {
      const data = await call('GET', `${list(listId)}/interest-categories/${encodeURIComponent(categoryId)}/interests?${INTERESTS_QUERY}`);
      return recordsOf(isRecord(data) ? data.interests : undefined).map((i) => ({ id: text(i.id), name: text(i.name) }));
    },
    async getMemberMarketingPermissions(listId) {
      const data = await call('GET', `${list(listId)}/members?${PERMISSIONS_QUERY}`);
      const first = recordsOf(isRecord(data) ? data.members : undefined)[0];
      return recordsOf(first?.marketing_permissions).map((p) => ({ marketing_permission_id: text(p.marketing_permission_id), text: text(p.text) }));
    },
  };
}
