/**
 * @module namespaces/connector/extensions
 * The extension point through which areas say they use the site connection (`connection/plugins`).
 */

/** A product module that uses the connection. */
export interface ConnectionUser {
  name: string;
  slug: string;
}

declare module '../../area.js' {
  interface ExtensionPoints {
    /** Lists the contributor in `connection/plugins`. */
    connectionUsers: ConnectionUser;
  }
}
