/**
 * @module namespaces/connector
 * The site connector, namespace `connector/v4` (the original Jetpack connection package's
 * `jetpack/v4`): registering the site with the hub at `REMOTE_CONNECTOR_URL`, connecting users,
 * owner changes, disconnecting, the hub-initiated handshakes, and requests the hub signs with the
 * blog token or a user's token on any REST route (`signed-request.ts`).
 */
import { defineArea } from '../../area.js';
import { connectorRoutes } from './connector.routes.js';
import { authenticateSignedRequest, pruneNonces, PRUNE_NONCES_JOB } from './signed-request.js';

export const connectorArea = defineArea({
  id: 'connector',
  title: 'Site connection',
  description: 'Connects the site to a remote hub: registration, user authorization, ownership and signed hub requests.',
  namespaces: [connectorRoutes],
  jobs: { [PRUNE_NONCES_JOB]: (ctx) => pruneNonces(ctx) },
  schedules: [{ name: PRUNE_NONCES_JOB, kind: PRUNE_NONCES_JOB, every: '1h' }],
  contributes: { connectionUsers: { name: 'EventSuite', slug: 'eventsuite' }, signedRequests: authenticateSignedRequest },
});

export { CONNECTOR_NS, REGISTRATION_NONCE_ACTION, connectorRoutes } from './connector.routes.js';
export type { ConnectionUser } from './extensions.js';
