/**
 * @module rest/response-cache
 * A moment's reuse of signed-out GET answers for routes that opt in (`publicCacheMs`): the same route
 * and query within the time get the same answer, already encoded. The key holds this process's write
 * generation, so a write made here is seen at once; other processes' writes show once the entry
 * expires. Bounded in entries and characters, per app; entries of an earlier write generation are
 * dropped at once (no key reaches them again), expired ones as new ones come in.
 */
import { JsonText } from './json-text.js';
import { compactLinks } from './links.js';
import { RestResponse, type RestRequest } from './route.js';
import { writeGeneration } from './write-generation.js';

export const MAX_CACHED_ENTRIES = 2_000;
/** Characters of encoded answers kept at most; each is held as text and, once sent, as bytes. */
export const MAX_CACHED_CHARS = 8 * 1024 * 1024;

interface Entry {
  at: number;
  ttl: number;
  status: number;
  headers: Record<string, string>;
  body: JsonText;
}

export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  #chars = 0;
  /** The write generation of every entry held (older ones can never be asked for again). */
  #generation = writeGeneration();

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
    this.#sync();
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at >= hit.ttl) {
      this.#drop(key, hit);
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
    const answer = new RestResponse(body, res.status, res.headers);
    this.#sync();
    // A write came in while this answer was made: its key is already unreachable.
    if (!key.startsWith(`${this.#generation}|`) || text.length > MAX_CACHED_CHARS / 8) return answer;
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    const now = Date.now();
    // Oldest first: whatever is over the bounds, and expired entries at the front.
    for (const [k, e] of this.#entries) {
      if (this.#entries.size < MAX_CACHED_ENTRIES && this.#chars + text.length <= MAX_CACHED_CHARS && now - e.at < e.ttl) break;
      this.#drop(k, e);
    }
    this.#entries.set(key, { at: now, ttl, status: res.status, headers: { ...res.headers }, body });
    this.#chars += text.length;
    return answer;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Characters of the answers held. */
  get chars(): number {
    return this.#chars;
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#chars -= entry.body.text.length;
  }

  /** Forgets every entry once a write has made them unreachable. */
  #sync(): void {
    const now = writeGeneration();
    if (now === this.#generation) return;
    this.#entries.clear();
    this.#chars = 0;
    this.#generation = now;
  }
}
