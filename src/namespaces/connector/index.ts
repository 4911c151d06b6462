/**
 * @module namespaces/connector
 * The site connector, namespace `connector/v4` (the original Jetpack connection package's
 * `jetpack/v4`): registering the site with the hub at `REMOTE_CONNECTOR_URL`, connecting users,
 * owner changes, disconnecting, and the hub-initiated handshakes verified by blog-token signatures.
 */
import { defineArea } from '../../area.js';
import { connectorRoutes } from './connector.routes.js';

export const connectorArea = defineArea({
  id: 'connector',
  title: 'Site connection',
  description: 'Connects the site to a remote hub: registration, user authorization, ownership and signed hub requests.',
  namespaces: [connectorRoutes],
  contributes: { connectionUsers: { name: 'EventSuite', slug: 'eventsuite' } },
});

export { CONNECTOR_NS, REGISTRATION_NONCE_ACTION, connectorRoutes } from './connector.routes.js';
export type { ConnectionUser } from './extensions.js';
