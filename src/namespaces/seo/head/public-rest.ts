/**
 * @module namespaces/seo/head/public-rest
 * Reads other areas' public representations (an event with its venue, organizers and JSON-LD, the
 * event's tickets) through the app's own REST dispatcher, as a signed-out visitor: the head of a
 * public page shows exactly what any visitor may see, and no other area's tables are touched.
 */
import type { AppContext } from '../../../app-context.js';
import type { Dispatcher } from '../../../rest/dispatch.js';
import { createRestRequest } from '../../../rest/request.js';

const dispatchers = new WeakMap<AppContext, Dispatcher<AppContext>>();

/** Called once by the area's page registrar, which receives the dispatcher. */
export function rememberDispatcher(ctx: AppContext, dispatcher: Dispatcher<AppContext>): void {
  dispatchers.set(ctx, dispatcher);
}

/** The body of a signed-out GET of `route`, or undefined when it is not a 200. */
export async function publicGet(ctx: AppContext, route: string, query: Record<string, unknown> = {}): Promise<any> {
  const dispatcher = dispatchers.get(ctx);
  if (!dispatcher) return undefined;
  const req = createRestRequest({ method: 'GET', route, query, user: null, auth: { method: 'none' } });
  const res = await dispatcher.execute(dispatcher.prepare(req));
  return res.status === 200 ? res.data : undefined;
}
