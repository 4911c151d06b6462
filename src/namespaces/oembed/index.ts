/**
 * @module namespaces/oembed
 * The `oembed/1.0` namespace: embed data for the site's own posts and the editor's oEmbed proxy,
 * and the framed embed page of every embeddable post type. The worked example of `docs/areas.md`.
 */
import { defineArea } from '../../area.js';
import { oembedDiscoveryLinks } from './discovery-links.js';
import { registerEmbedPages, serveEmbedView } from './embed-page.js';
import { oembedRoutes } from './oembed.routes.js';

export const oembedArea = defineArea({
  id: 'oembed',
  title: 'Embeds',
  description: 'oEmbed data for this site’s content, the framed embed pages, and a proxy for remote URLs.',
  namespaces: [oembedRoutes],
  pages: (app, host) => registerEmbedPages(app, host.ctx),
  contributes: { singularHead: oembedDiscoveryLinks, embedView: serveEmbedView },
});

export { oembedRoutes, OEMBED_NS } from './oembed.routes.js';
export { permalinkFor, resolvePermalink, type PermalinkTarget, type PostRow } from './permalinks.js';
