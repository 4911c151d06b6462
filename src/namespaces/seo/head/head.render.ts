/**
 * @module namespaces/seo/head/head.render
 * The head as HTML: the tags a search engine reads, in the original's order, escaped.
 */
import type { HeadJson } from './head.service.js';

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** JSON safe inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function renderHead(h: HeadJson): string {
  const lines: string[] = [`<title>${text(h.title)}</title>`];
  if (h.description) lines.push(`<meta name="description" content="${attr(h.description)}" />`);
  lines.push(`<meta name="robots" content="${attr(Object.values(h.robots).join(', '))}" />`);
  if (h.canonical) lines.push(`<link rel="canonical" href="${attr(h.canonical)}" />`);
  const og: [string, string | undefined][] = [
    ['og:locale', h.og_locale], ['og:type', h.og_type], ['og:title', h.og_title], ['og:description', h.og_description],
    ['og:url', h.og_url], ['og:site_name', h.og_site_name],
  ];
  for (const [p, v] of og) if (v) lines.push(`<meta property="${p}" content="${attr(v)}" />`);
  for (const img of h.og_image ?? []) lines.push(`<meta property="og:image" content="${attr(img.url)}" />`);
  lines.push(`<meta name="twitter:card" content="${attr(h.twitter_card)}" />`);
  if (h.twitter_site) lines.push(`<meta name="twitter:site" content="${attr(h.twitter_site)}" />`);
  lines.push(`<script type="application/ld+json" class="yoast-schema-graph">${scriptJson(h.schema)}</script>`);
  return lines.join('\n');
}
