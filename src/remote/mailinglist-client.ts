/**
 * @module remote/mailinglist-client
 * A client for a list service speaking the Mailchimp Marketing API v3, at `REMOTE_MAILINGLIST_URL`
 * (`config.remotes.mailinglist`; the original service is `https://<dc>.api.mailchimp.com`, the data
 * centre being the API key's suffix). HTTP Basic authentication with the API key; JSON both ways:
 *
 * - `GET  /3.0/lists/{list}/members/{md5(lower-case email)}` → the member, 404 when unknown
 * - `POST /3.0/lists/{list}/members` with `{email_address, status, merge_fields, ip_signup, …}`
 * - `PATCH /3.0/lists/{list}/members/{hash}` with the fields to change
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
  id: string;
  email_address: string;
  status: string;
  [key: string]: unknown;
}

export interface MailinglistClient {
  /** The member, or undefined when the list does not have that address. */
  getMember(listId: string, email: string): Promise<ListMember | undefined>;
  addMember(listId: string, data: Record<string, unknown>): Promise<ListMember>;
  updateMember(listId: string, email: string, data: Record<string, unknown>): Promise<ListMember>;
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

export function createMailinglistClient(options: { apiKey: string; endpoint?: string; timeoutMs?: number; fetchImpl?: typeof fetch }): MailinglistClient {
  const fetchImpl = options.fetchImpl ?? fetch;
  const base = `${mailchimpBase(options.apiKey, options.endpoint)}/3.0`;

  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<ListMember | undefined> {
    if (!options.apiKey) throw new MailinglistApiError('Missing API key', 1);
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`mc4wp:${options.apiKey}`).toString('base64')}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? MAILINGLIST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (e) {
      throw new MailinglistApiError(`The mailing list service could not be reached: ${e instanceof Error ? e.message : String(e)}`, 0);
    }
    const text = await res.text();
    let data: unknown;
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch {
      data = undefined;
    }
    if (res.status === 404 && method === 'GET') return undefined;
    if (res.status >= 400) {
      const d = (data ?? {}) as Record<string, unknown>;
      const detail = typeof d.detail === 'string' ? d.detail : typeof d.title === 'string' ? d.title : res.statusText;
      throw new MailinglistApiError(`${res.status}: ${detail}`, res.status);
    }
    if (!data || typeof data !== 'object') throw new MailinglistApiError('The mailing list service answered without JSON.', res.status);
    return data as ListMember;
  }

  const membersOf = (listId: string) => `/lists/${encodeURIComponent(listId)}/members`;
  return {
    getMember: (listId, email) => call('GET', `${membersOf(listId)}/${memberHash(email)}`),
    addMember: async (listId, data) => (await call('POST', membersOf(listId), data))!,
    updateMember: async (listId, email, data) => (await call('PATCH', `${membersOf(listId)}/${memberHash(email)}`, data))!,
  };
}
