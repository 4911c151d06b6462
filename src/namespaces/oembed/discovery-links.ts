/**
 * @module namespaces/oembed/discovery-links
 * The oEmbed discovery `<link>` tags in the head of a single post's page
 * (`wp_oembed_add_discovery_links`): how other sites find the oEmbed endpoint for the page's URL.
 *
 * @example
 * oembedDiscoveryLinks(ctx, 'https://example.test/event/gala/');
 * // <link rel="alternate" type="application/json+oembed" href="https://example.test/wp-json/oembed/1.0/embed?url=https%3A%2F%2Fexample.test%2Fevent%2Fgala%2F" />
 * // <link rel="alternate" type="text/xml+oembed" href="…&#038;format=xml" />
 */
import type { AppContext } from '../../app-context.js';
import { OEMBED_NS } from './oembed.routes.js';

/** PHP's `urlencode`: everything but letters, digits and `-_.` percent-encoded, a space as `+`. */
export function phpUrlencode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** `get_oembed_endpoint_url`: the embed route for a permalink, with `format` unless it is json. */
export function oembedEndpointUrl(ctx: Pick<AppContext, 'urls'>, permalink: string, format: 'json' | 'xml' = 'json'): string {
  return `${ctx.urls.apiRoot}${OEMBED_NS}/embed?url=${phpUrlencode(permalink)}${format === 'xml' ? '&format=xml' : ''}`;
}

/** `esc_url` for a URL we built: `&` as `&#038;`, quotes and angle brackets encoded. */
function escUrl(url: string): string {
  return url.replace(/&/g, '&#038;').replace(/'/g, '&#039;').replace(/"/g, '%22').replace(/</g, '%3C').replace(/>/g, '%3E');
}

/** The JSON and XML discovery links of the page whose permalink is `permalink`, one per line. */
export function oembedDiscoveryLinks(ctx: Pick<AppContext, 'urls'>, permalink: string): string {
  return (
    `<link rel="alternate" type="application/json+oembed" href="${escUrl(oembedEndpointUrl(ctx, permalink))}" />\n` +
    `<link rel="alternate" type="text/xml+oembed" href="${escUrl(oembedEndpointUrl(ctx, permalink, 'xml'))}" />\n`
  );
}
