/**
 * @module remote/marketplace-client
 * Client of the extensions marketplace (`REMOTE_MARKETPLACE_URL`), the original's WooCommerce.com
 * helper API. JSON both ways; a connected store sends `Authorization: Bearer {access_token}`.
 * - `GET  {endpoint}/featured?locale=&country=` → array of sections
 * - `GET  {endpoint}/subscriptions` → array of subscriptions
 * - `POST {endpoint}/subscriptions/{product_key}/activate` and `/deactivate` → `{message?}`, or 4xx
 *   `{code, message, data?}` (`maxed_out` with `data.sites_list`/`total_domains`, `invalid_product_key`,
 *   `already_connected`, …)
 * - `GET  {endpoint}/subscriptions/{product_key}/install-url` → `{url}`
 * - `POST {endpoint}/create-order` `{product_id}` → any JSON, relayed with its status
 * A network error or timeout is a {@link MarketplaceError} with code `unreachable`.
 */

export const MARKETPLACE_TIMEOUT_MS = 10_000;

const FEATURED_MESSAGES = {
  status: (status: number) => `Our request to the featured API got error code ${status}.`,
  malformed: 'Our request to the featured API got a malformed response.',
} as const;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

export class MarketplaceError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface MarketplaceAnswer {
  status: number;
  body: unknown;
}

export class MarketplaceClient {
  constructor(
    readonly endpoint: string,
    readonly accessToken: string,
    readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async #call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<MarketplaceAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.accessToken) headers.authorization = `Bearer ${this.accessToken}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.endpoint.replace(/\/+$/, '')}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(MARKETPLACE_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (e) {
      throw new MarketplaceError(`The marketplace could not be reached: ${e instanceof Error ? e.message : String(e)}`, 'unreachable', 400);
    }
    const text = await res.text();
    if (text.length > MAX_BODY_BYTES) throw new MarketplaceError('The marketplace answer is too large.', 'invalid_response', 400);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new MarketplaceError(`The marketplace answered ${res.status} without JSON.`, 'invalid_response', 400);
    }
    return { status: res.status, body: parsed };
  }

  /** A 2xx JSON answer, else the marketplace's own error (code, message, data) as a {@link MarketplaceError}. */
  async #ok(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const answer = await this.#call(method, path, body);
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    const b = (answer.body ?? {}) as Record<string, unknown>;
    const message = typeof b.message === 'string' ? b.message : `The marketplace answered ${answer.status}.`;
    throw new MarketplaceError(message, typeof b.code === 'string' ? b.code : 'remote_error', 400, b.data);
  }

  /** Only a 200 with a non-empty array counts; the failures carry the original's sentences, not the marketplace's. */
  async featured(locale: string, country: string): Promise<unknown[]> {
    const answer = await this.#call('GET', `/featured?${new URLSearchParams({ locale, country })}`);
    if (answer.status !== 200) throw new MarketplaceError(FEATURED_MESSAGES.status(answer.status), 'remote_error', 400);
    if (!Array.isArray(answer.body) || answer.body.length === 0) throw new MarketplaceError(FEATURED_MESSAGES.malformed, 'invalid_response', 400);
    return answer.body;
  }

  async subscriptions(): Promise<Record<string, unknown>[]> {
    const body = await this.#ok('GET', '/subscriptions');
    if (!Array.isArray(body)) throw new MarketplaceError('The marketplace answered without a subscription list.', 'invalid_response', 400);
    return body.filter((s): s is Record<string, unknown> => !!s && typeof s === 'object');
  }

  /** A key the marketplace says is `already_connected` to this site counts as activated. */
  async activate(productKey: string, siteUrl: string): Promise<unknown> {
    try {
      return await this.#ok('POST', `/subscriptions/${encodeURIComponent(productKey)}/activate`, { site_url: siteUrl });
    } catch (e) {
      if (e instanceof MarketplaceError && e.code === 'already_connected') return {};
      throw e;
    }
  }

  async deactivate(productKey: string, siteUrl: string): Promise<unknown> {
    return this.#ok('POST', `/subscriptions/${encodeURIComponent(productKey)}/deactivate`, { site_url: siteUrl });
  }

  async installUrl(productKey: string): Promise<string> {
    const body = (await this.#ok('GET', `/subscriptions/${encodeURIComponent(productKey)}/install-url`)) as Record<string, unknown> | undefined;
    const url = body?.url;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new MarketplaceError('The marketplace gave no install URL.', 'no_install_url', 400);
    return url;
  }

  /** The marketplace's answer as it is (status and body). */
  createOrder(productId: number): Promise<MarketplaceAnswer> {
    return this.#call('POST', '/create-order', { product_id: productId });
  }
}
