/**
 * @module rest/locals
 * Per-request values computed once: a check loads the event, the permission (also when run again for
 * the `Allow` header) and the handler reuse it. The value lands in `req.locals[key]`.
 *
 * @example
 * const ev = await loadOnce(req, 'event', () => getEvent(ctx.db, Number(req.params.id)));
 */
import type { RequestLocals, RestRequest } from './route.js';

const pending = new WeakMap<RestRequest, Map<string, Promise<unknown>>>();

/** `req.locals[key]`, computed by `compute` on first use in this request. */
export function loadOnce<K extends keyof RequestLocals & string>(
  req: RestRequest,
  key: K,
  compute: () => Promise<RequestLocals[K]>,
): Promise<RequestLocals[K]> {
  let map = pending.get(req);
  if (!map) {
    map = new Map();
    pending.set(req, map);
  }
  let value = map.get(key) as Promise<RequestLocals[K]> | undefined;
  if (!value) {
    value = compute().then((v) => {
      req.locals[key] = v;
      return v;
    });
    map.set(key, value);
  }
  return value;
}
