/**
 * @module namespaces/seo/head/schema-graph
 * The pieces of the JSON-LD graph: WebSite, the site's Organization or Person (site representation
 * and social profiles), WebPage and BreadcrumbList, with the original's `@id` scheme.
 */
import type { AppContext } from '../../../app-context.js';
import { getSeoOption } from '../store.js';

export type Node = Record<string, unknown>;

export const ids = (home: string) => ({
  website: `${home}/#website`,
  organization: `${home}/#organization`,
  person: (userId: number) => `${home}/#/schema/person/${userId}`,
  breadcrumb: (url: string) => `${url}#breadcrumb`,
});

/** The site's social profile URLs (`sameAs`). */
export async function sameAs(ctx: AppContext): Promise<string[]> {
  const out: string[] = [];
  const facebook = await getSeoOption<string>(ctx, 'facebook_site');
  const twitter = await getSeoOption<string>(ctx, 'twitter_site');
  if (facebook) out.push(facebook);
  if (twitter) out.push(`https://x.com/${twitter}`);
  out.push(...(await getSeoOption<string[]>(ctx, 'other_social_urls')));
  return out;
}

/** The Organization or Person the site represents, or undefined when a person is chosen but unknown. */
export async function publisherNode(ctx: AppContext): Promise<Node | undefined> {
  const home = ctx.urls.home;
  const kind = await getSeoOption<string>(ctx, 'company_or_person');
  const profiles = await sameAs(ctx);
  if (kind === 'person') {
    const userId = Number(await getSeoOption(ctx, 'company_or_person_user_id'));
    if (!Number.isInteger(userId) || userId <= 0) return undefined;
    const row = await ctx.db.selectFrom('users').select(['display_name']).where('id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    const logo = await getSeoOption<string>(ctx, 'person_logo');
    return {
      '@type': ['Person', 'Organization'],
      '@id': ids(home).person(userId),
      name: row.display_name,
      ...(logo ? { image: { '@type': 'ImageObject', url: logo, contentUrl: logo, caption: row.display_name }, logo: { '@id': `${ids(home).person(userId)}#image` } } : {}),
      ...(profiles.length ? { sameAs: profiles } : {}),
    };
  }
  const name = (await getSeoOption<string>(ctx, 'company_name')) || String(await ctx.options.get('blogname'));
  const logo = await getSeoOption<string>(ctx, 'company_logo');
  return {
    '@type': 'Organization',
    '@id': ids(home).organization,
    name,
    url: `${home}/`,
    ...(logo ? { logo: { '@type': 'ImageObject', '@id': `${home}/#/schema/logo/image/`, url: logo, contentUrl: logo, caption: name }, image: { '@id': `${home}/#/schema/logo/image/` } } : {}),
    ...(profiles.length ? { sameAs: profiles } : {}),
  };
}

export function websiteNode(ctx: AppContext, name: string, description: string, publisher: Node | undefined): Node {
  const home = ctx.urls.home;
  return {
    '@type': 'WebSite',
    '@id': ids(home).website,
    url: `${home}/`,
    name,
    description,
    ...(publisher ? { publisher: { '@id': publisher['@id'] } } : {}),
    potentialAction: [{ '@type': 'SearchAction', target: { '@type': 'EntryPoint', urlTemplate: `${home}/?s={search_term_string}` }, 'query-input': { '@type': 'PropertyValueSpecification', valueRequired: true, valueName: 'search_term_string' } }],
    inLanguage: 'en-US',
  };
}

/** Breadcrumbs: Home, then each crumb; the last one has no `item`. */
export function breadcrumbNode(ctx: AppContext, pageUrl: string, crumbs: { name: string; url?: string }[]): Node {
  const all = [{ name: 'Home', url: `${ctx.urls.home}/` }, ...crumbs];
  return {
    '@type': 'BreadcrumbList',
    '@id': ids(ctx.urls.home).breadcrumb(pageUrl),
    itemListElement: all.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, ...(i < all.length - 1 && c.url ? { item: c.url } : {}) })),
  };
}

export function webPageNode(ctx: AppContext, type: string, url: string, name: string, extra: Node = {}): Node {
  return {
    '@type': type,
    '@id': url,
    url,
    name,
    isPartOf: { '@id': ids(ctx.urls.home).website },
    breadcrumb: { '@id': ids(ctx.urls.home).breadcrumb(url) },
    inLanguage: 'en-US',
    ...extra,
  };
}
