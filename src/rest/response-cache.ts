/**
 * @module rest/response-cache
 * A moment's reuse of signed-out GET answers for routes that opt in (`publicCacheMs`): the same route
 * and query within the time get the same answer, already encoded. The key holds this process's write
 * generation, so a write made here is seen at once; other processes' writes show once the entry
 * expires. Bounded, per app.
 */
import { JsonText } from './json-text.js';
import { compactLinks } from './links.js';
import { RestResponse, type RestRequest } from './route.js';
import { writeGeneration } from './write-generation.js';

const MAX_ENTRIES = 2_000;

interface Entry {
  at: number;
  ttl: number;
  status: number;
  headers: Record<string, string>;
  body: JsonText;
}

export class ResponseCache {
  readonly #entries = new Map<string, Entry>();

  /** The cache key of a request, or undefined when it may not be served from the cache. */
  keyOf(req: RestRequest): string | undefined {
    if (req.method !== 'GET' || req.user !== null || req.auth.method !== 'none') return undefined;
    // A JSON body counts even on GET (a password, a key): only query-only requests are shared.
    if (req.rawBody || req.json !== undefined || Object.keys(req.body).length > 0) return undefined;
    // Internal requests may arrive with locals that shape the answer (e.g. fewer fields): their own entries.
    const shaped = Object.keys(req.locals).length > 0 ? `|${JSON.stringify(req.locals)}` : '';
    return `${writeGeneration()}|${req.route}|${JSON.stringify(req.query)}${shaped}`;
  }

  get(key: string): RestResponse | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at >= hit.ttl) {
      this.#entries.delete(key);
      return undefined;
    }
    return new RestResponse(hit.body, hit.status, { ...hit.headers });
  }

  /** Keeps a successful plain-JSON answer; returns the response to send (encoded once). */
  set(key: string, res: RestResponse, ttl: number): RestResponse {
    if (res.status !== 200 || res.data instanceof JsonText || res.data === null || typeof res.data !== 'object') return res;
    const data = compactLinks(res.data);
    const text = JSON.stringify(data);
    const body = new JsonText(text, () => JSON.parse(text));
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { at: Date.now(), ttl, status: res.status, headers: { ...res.headers }, body });
    return new RestResponse(body, res.status, res.headers);
  }
}
