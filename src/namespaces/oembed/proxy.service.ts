/**
 * @module namespaces/oembed/proxy.service
 * `GET /oembed/1.0/proxy`: oEmbed data for any URL, for the editor. Lookup order as in the original:
 * the cache, the site's own posts, then the remote provider found by discovery; else 404.
 */
import type { AppContext } from '../../app-context.js';
import type { RestRequest } from '../../rest/route.js';
import { fetchOembedData } from '../../remote/oembed-client.js';
import { embedSecret, escapeHtml } from './embed.present.js';
import { embedDataForUrl } from './embed.service.js';
import { OembedErrors } from './errors.js';
import { proxyCacheKey, readProxyCache, writeProxyCache } from './proxy-cache.repo.js';
import { frameEmbedHtml, sanitizeEmbedHtml } from './sanitize-html.js';

/** `wp_embed_defaults()` height (min(ceil(500 × 1.5), 1000)), sent when no maxheight is given. */
export const DEFAULT_PROVIDER_MAXHEIGHT = 750;

function positiveNumber(value: unknown): boolean {
  return (typeof value === 'number' && value > 0) || (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) && Number(value) > 0);
}

function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `html` of a provider's object (`WP_oEmbed::data2html`), false when the object has nothing to
 * show. No provider is trusted here, so `rich` and `video` markup is always reduced to its frame, as
 * the original does for providers outside its list; photo and link markup is ours, sanitised anyway.
 */
export function providerHtml(data: Record<string, unknown>, url: string, secret = embedSecret()): string | false {
  let html: string | undefined;
  const title = typeof data.title === 'string' ? data.title : '';
  const link = safeHref(url);
  switch (data.type) {
    case 'photo': {
      const src = typeof data.url === 'string' ? safeHref(data.url) : undefined;
      if (!src || !link || !positiveNumber(data.width) || !positiveNumber(data.height)) break;
      html = `<a href="${escapeHtml(link)}"><img src="${escapeHtml(src)}" alt="${escapeHtml(title)}" width="${escapeHtml(String(data.width))}" height="${escapeHtml(String(data.height))}" /></a>`;
      break;
    }
    case 'video':
    case 'rich':
      return typeof data.html === 'string' && data.html !== '' ? frameEmbedHtml(data.html, { secret, title }) : false;
    case 'link':
      if (title !== '' && link) html = `<a href="${escapeHtml(link)}">${escapeHtml(title)}</a>`;
      break;
  }
  if (html === undefined) return false;
  const clean = sanitizeEmbedHtml(html, { secret });
  return clean.trim() === '' ? false : clean;
}

/** The proxied oEmbed object for the request's `url`. */
export async function proxyOembed(req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> {
  const url = String(req.params.url ?? '');
  const maxwidth = Number(req.params.maxwidth ?? 0);

  // ---- Cache
  const key = proxyCacheKey(req.params);
  const cached = await readProxyCache(ctx.db, key, ctx.now());
  if (cached) return cached;

  // ---- The site's own posts (not cached, as in the original)
  const own = await embedDataForUrl(ctx, url, maxwidth);
  if (own) return { ...own };

  // ---- Remote provider
  let data: Record<string, unknown> | undefined;
  try {
    data = await fetchOembedData(
      {
        url,
        maxwidth,
        maxheight: req.has('maxheight') ? Number(req.params.maxheight) : DEFAULT_PROVIDER_MAXHEIGHT,
        format: req.params.format === 'xml' ? 'xml' : 'json',
        discover: req.params.discover !== false,
      },
      { allowPrivateNetwork: ctx.config.environment === 'local' },
    );
  } catch (err) {
    // CASE: the original answers 404 whenever no provider works; a remote failure is not our 500.
    ctx.log.info({ err, url }, 'oEmbed provider request failed');
    throw OembedErrors.invalidUrl();
  }
  if (!data) throw OembedErrors.invalidUrl();
  const result: Record<string, unknown> = { ...data, html: providerHtml(data, url) };
  try {
    await writeProxyCache(ctx.db, key, result, ctx.now());
  } catch (err) {
    // The answer is good without the cache; the next request simply asks the provider again.
    ctx.log.warn({ err }, 'oEmbed proxy cache write failed');
  }
  return result;
}
