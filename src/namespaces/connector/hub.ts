/**
 * @module namespaces/connector/hub
 * The hub client of this app (one per configured endpoint) and the blog signer.
 */
import type { AppContext } from '../../app-context.js';
import { connectorHub, ConnectorHubError, type HubClient } from '../../remote/connector-hub.js';
import { RestError } from '../../rest/errors.js';
import { ConnectorErrors } from './errors.js';
import { loadTimeDiff, saveTimeDiff, type ConnectionState } from './state.js';

/** Per app: the client of each endpoint (it keeps the app's clock and stored time offset). */
const clients = new WeakMap<AppContext, Map<string, HubClient>>();

/** The hub client, or the "not configured" error. */
export function hubOf(ctx: AppContext): HubClient {
  const endpoint = ctx.config.remotes.connector;
  if (!endpoint) throw ConnectorErrors.hubNotConfigured();
  let mine = clients.get(ctx);
  if (!mine) clients.set(ctx, (mine = new Map()));
  let client = mine.get(endpoint);
  if (!client) {
    client = connectorHub(endpoint, { now: () => ctx.now(), timeDiff: () => loadTimeDiff(ctx), setTimeDiff: (s) => saveTimeDiff(ctx, s) });
    mine.set(endpoint, client);
  }
  return client;
}

export function blogSigner(state: ConnectionState): { token: string; userId: number } {
  return { token: state.blog_token!, userId: 0 };
}

/** A hub failure as the client sees it (the original's code). */
export function asRestError(e: unknown): RestError {
  if (e instanceof RestError) return e;
  if (e instanceof ConnectorHubError) return ConnectorErrors.hub(e.code, e.message);
  throw e;
}
