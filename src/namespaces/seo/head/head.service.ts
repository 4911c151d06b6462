/**
 * @module namespaces/seo/head/head.service
 * The head of any public URL of this site (front page, events, venues, organizers, the calendar
 * pages and category/tag archives), or the 404 head: title, description, robots, canonical, Open
 * Graph and Twitter tags, and the JSON-LD graph (Event with location, organizer and offers from the
 * tickets; Place; Organization/Person; WebPage; BreadcrumbList; WebSite).
 */
import type { AppContext } from '../../../app-context.js';
import { getTermBySlug } from '../../../content/terms.js';
import { pathSlug } from '../../../content/slugs.js';
import { pathSegment } from '../../../config.js';
import { resolvePermalink } from '../../oembed/index.js';
import { plainText } from '../analysis/text.js';
import { getPostMeta, getSeoOption, META_KEYS } from '../store.js';
import { renderHead } from './head.render.js';
import { publicGet } from './public-rest.js';
import { breadcrumbNode, publisherNode, webPageNode, websiteNode, type Node } from './schema-graph.js';

export interface HeadJson {
  title: string;
  description?: string;
  robots: Record<string, string>;
  canonical?: string;
  og_locale: string;
  og_type: string;
  og_title: string;
  og_description?: string;
  og_url?: string;
  og_site_name: string;
  og_image?: { url: string }[];
  twitter_card: string;
  twitter_site?: string;
  schema: { '@context': string; '@graph': Node[] };
}

export interface Head {
  status: 200 | 404;
  json: HeadJson;
  html: string;
}

const SEP = '-';
const DESCRIPTION_MAX = 156;
/** Calendar views under the events archive. */
const CALENDAR_VIEWS = new Set(['list', 'month', 'day', 'today', 'week', 'photo', 'map', 'upcoming', 'past']);

interface Page {
  kind: 'front' | 'post' | 'archive' | 'term';
  title: string;
  description: string;
  url: string;
  ogType: 'website' | 'article';
  image?: string;
  noindex: boolean;
  pageType: string;
  crumbs: { name: string; url?: string }[];
  main?: Node;
}

function trimDescription(text: string): string {
  const clean = plainText(text);
  if (clean.length <= DESCRIPTION_MAX) return clean;
  const cut = clean.slice(0, DESCRIPTION_MAX - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trimEnd()}…`;
}

function isoUtc(text: unknown): string | undefined {
  return typeof text === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text) ? `${text.replace(' ', 'T')}+00:00` : undefined;
}

/** Offers from the event's tickets (price, currency, availability), else the event's own cost offer. */
async function ticketOffers(ctx: AppContext, eventId: number, eventUrl: string, currency: string): Promise<Node[] | undefined> {
  const list = await publicGet(ctx, '/eventsuite/tickets/v1/tickets', { include_post: [eventId], per_page: 100 });
  const tickets = Array.isArray(list?.tickets) ? list.tickets : [];
  if (tickets.length === 0) return undefined;
  return tickets.map((t: any) => {
    const values = Array.isArray(t.cost_details?.values) ? t.cost_details.values : [];
    const price = values.length ? String(values[0]) : '0';
    return {
      '@type': 'Offer',
      name: String(t.title ?? ''),
      price,
      priceCurrency: String(t.cost_details?.currency_code || currency),
      availability: t.is_available ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      url: eventUrl,
      ...(isoUtc(t.available_from) ? { validFrom: isoUtc(t.available_from) } : {}),
    };
  });
}

async function postPage(ctx: AppContext, post: { id: number; type: string; title: string; content: string; excerpt: string; image_url: string }, url: string): Promise<Page> {
  const meta = (await getPostMeta(ctx.db, [post.id])).get(post.id) ?? {};
  const base: Page = {
    kind: 'post',
    title: meta[META_KEYS.title] || post.title,
    description: meta[META_KEYS.metaDescription] || trimDescription(post.excerpt || post.content),
    url,
    ogType: 'article',
    ...(post.image_url ? { image: post.image_url } : {}),
    noindex: meta[META_KEYS.noindex] === '1',
    pageType: 'WebPage',
    crumbs: [{ name: post.title }],
  };
  if (post.type === 'tribe_events') {
    const event = await publicGet(ctx, `/eventsuite/events/v1/events/${post.id}`);
    if (event?.json_ld) {
      const { '@context': _c, ...ld } = event.json_ld as Node;
      const main: Node = { ...ld, '@id': `${url}#event`, mainEntityOfPage: { '@id': url } };
      const currency = String((event.cost_details as Node | undefined)?.currency_code ?? '') || String(await ctx.options.get('tribe_currency_code', 'USD'));
      const offers = await ticketOffers(ctx, post.id, url, currency);
      if (offers) main.offers = offers.length === 1 ? offers[0] : offers;
      if (typeof main.organizer === 'string' || main.organizer === undefined) delete main.organizer;
      if (main.performer === 'Organization') delete main.performer;
      base.main = main;
      base.crumbs = [{ name: 'Events', url: `${ctx.urls.home}/events/` }, { name: post.title }];
    }
  } else if (post.type === 'tribe_venue' || post.type === 'tribe_organizer') {
    const route = post.type === 'tribe_venue' ? 'venues' : 'organizers';
    const item = await publicGet(ctx, `/eventsuite/events/v1/${route}/${post.id}`);
    if (item?.json_ld) {
      const { '@context': _c, ...ld } = item.json_ld as Node;
      base.main = { ...ld, '@id': `${url}#${post.type === 'tribe_venue' ? 'place' : 'organizer'}`, mainEntityOfPage: { '@id': url } };
    }
    base.ogType = 'website';
  }
  return base;
}

async function archivePage(ctx: AppContext, path: string): Promise<Page | undefined> {
  const home = ctx.urls.home;
  const m = /^\/events(?:\/(.*?))?\/?$/.exec(path);
  if (m) {
    const rest = (m[1] ?? '').split('/').filter(Boolean);
    if (rest.length === 0 || (rest.length <= 2 && CALENDAR_VIEWS.has(rest[0]!))) {
      const url = `${home}/events/${rest.length ? `${rest.join('/')}/` : ''}`;
      return { kind: 'archive', title: 'Events Archive', description: '', url, ogType: 'website', noindex: false, pageType: 'CollectionPage', crumbs: [{ name: 'Events' }] };
    }
    if (rest[0] === 'category' && rest.length >= 2) {
      const term = await getTermBySlug(ctx.db, 'tribe_events_cat', pathSlug(rest[1]!));
      if (!term) return undefined;
      return {
        kind: 'term', title: `${term.name} Archives`, description: trimDescription(term.description), url: `${home}/events/category/${pathSegment(term.slug)}/`,
        ogType: 'website', noindex: false, pageType: 'CollectionPage', crumbs: [{ name: 'Events', url: `${home}/events/` }, { name: term.name }],
      };
    }
    return undefined;
  }
  const tag = /^\/tag\/([^/]+)\/?$/.exec(path);
  if (tag) {
    const term = await getTermBySlug(ctx.db, 'post_tag', pathSlug(tag[1]!));
    if (!term) return undefined;
    return {
      kind: 'term', title: `${term.name} Archives`, description: trimDescription(term.description), url: `${home}/tag/${pathSegment(term.slug)}/`,
      ogType: 'website', noindex: false, pageType: 'CollectionPage', crumbs: [{ name: term.name }],
    };
  }
  return undefined;
}

function sameHost(a: URL, b: URL): boolean {
  const h = (u: URL) => u.host.toLowerCase().replace(/^www\./, '');
  return h(a) === h(b);
}

/** What page a URL of this site is, or undefined for the 404 head. */
async function resolvePage(ctx: AppContext, raw: string): Promise<Page | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const home = new URL(ctx.urls.home);
  if (!sameHost(url, home) || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const path = url.pathname.slice(home.pathname.replace(/\/+$/, '').length) || '/';
  if (path === '/' && !url.searchParams.has('p') && !url.searchParams.has('page_id') && ![...url.searchParams.keys()].some((k) => k.startsWith('tribe_'))) {
    const name = String(await ctx.options.get('blogname'));
    const tagline = String(await ctx.options.get('blogdescription'));
    return { kind: 'front', title: tagline ? `${name} ${SEP} ${tagline}` : name, description: tagline, url: `${ctx.urls.home}/`, ogType: 'website', noindex: false, pageType: 'CollectionPage', crumbs: [] };
  }
  const post = await resolvePermalink(ctx, raw);
  if (post) return postPage(ctx, post, ctx.urls.permalink(post));
  return archivePage(ctx, path);
}

async function siteBits(ctx: AppContext) {
  const name = String(await ctx.options.get('blogname'));
  const description = String(await ctx.options.get('blogdescription'));
  const publisher = await publisherNode(ctx);
  const twitter = await getSeoOption<string>(ctx, 'twitter_site');
  const isPublic = String(await ctx.options.get<unknown>('blog_public', 1)) === '1';
  // The site representation's "website name" names the WebSite in the schema; titles keep the blog name.
  const schemaName = String((await getSeoOption<unknown>(ctx, 'website_name')) ?? '').trim() || name;
  return { name, schemaName, description, publisher, twitter, isPublic };
}

function robots(index: boolean): Record<string, string> {
  return index
    ? { index: 'index', follow: 'follow', 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' }
    : { index: 'noindex', follow: 'follow' };
}

/** The head of `url`. */
export async function buildHead(ctx: AppContext, url: string): Promise<Head> {
  const site = await siteBits(ctx);
  const page = await resolvePage(ctx, url);
  const website = websiteNode(ctx, site.schemaName, site.description, site.publisher);
  if (!page) {
    const title = `Page not found ${SEP} ${site.name}`;
    const json: HeadJson = {
      title, robots: robots(false), og_locale: 'en_US', og_type: 'website', og_title: title, og_site_name: site.name, twitter_card: 'summary_large_image',
      ...(site.twitter ? { twitter_site: `@${site.twitter}` } : {}),
      schema: { '@context': 'https://schema.org', '@graph': [website, ...(site.publisher ? [site.publisher] : [])] },
    };
    return { status: 404, json, html: renderHead(json) };
  }
  const title = page.kind === 'front' ? page.title : `${page.title} ${SEP} ${site.name}`;
  const graph: Node[] = [
    webPageNode(ctx, page.pageType, page.url, title, {
      ...(page.description ? { description: page.description } : {}),
      ...(page.kind === 'front' && site.publisher ? { about: { '@id': site.publisher['@id'] } } : {}),
    }),
  ];
  if (page.crumbs.length) graph.push(breadcrumbNode(ctx, page.url, page.crumbs));
  graph.push(website);
  if (site.publisher) graph.push(site.publisher);
  if (page.main) graph.push(page.main);
  const json: HeadJson = {
    title,
    ...(page.description ? { description: page.description } : {}),
    robots: robots(site.isPublic && !page.noindex),
    canonical: page.url,
    og_locale: 'en_US',
    og_type: page.ogType,
    og_title: page.kind === 'front' ? site.name : title,
    ...(page.description ? { og_description: page.description } : {}),
    og_url: page.url,
    og_site_name: site.name,
    ...(page.image ? { og_image: [{ url: page.image }] } : {}),
    twitter_card: 'summary_large_image',
    ...(site.twitter ? { twitter_site: `@${site.twitter}` } : {}),
    schema: { '@context': 'https://schema.org', '@graph': graph },
  };
  return { status: 200, json, html: renderHead(json) };
}
