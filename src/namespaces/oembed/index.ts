/**
 * @module namespaces/oembed
 * The `oembed/1.0` namespace: embed data for the site's own posts and the editor's oEmbed proxy.
 * Other areas may use the permalink builder and resolver.
 */
export { oembedRoutes, OEMBED_NS } from './oembed.routes.js';
export { registerEmbedPages } from './embed-page.js';
export { permalinkFor, resolvePermalink, EMBEDDABLE_TYPE_BASES, type PermalinkTarget, type PostRow } from './permalinks.js';
