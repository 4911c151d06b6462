/**
 * @module namespaces/oembed/embed.service
 * The oEmbed object of one of the site's own posts (`get_oembed_response_data` with the default
 * `get_oembed_response_data_rich` filter): sizing, author, provider, embed HTML, thumbnail. A
 * password-protected post's title reads "Protected: …" (`get_the_title`); its featured image is still
 * given, as the original gives it.
 */
import type { AppContext } from '../../app-context.js';
import { constrainDimensions } from '../../content/image-sizes.js';
import { mediaFactsByUrl } from '../../content/media.js';
import { absint } from '../../rest/php-query.js';
import { embedHtml } from './embed.present.js';
import { authorArchiveUrl, permalinkFor, resolvePermalink, type PostRow } from './permalinks.js';
import { embedTitle } from './post-text.js';

/** `oembed_min_max_width`. */
export const MIN_WIDTH = 200;
export const MAX_WIDTH = 600;
/** `oembed_default_width`. */
export const DEFAULT_WIDTH = 600;
const MIN_HEIGHT = 200;

/** Width and height of the embed frame for a requested maximum width. */
export function embedSize(maxwidth: unknown): { width: number; height: number } {
  const width = Math.min(Math.max(MIN_WIDTH, absint(maxwidth)), MAX_WIDTH);
  return { width, height: Math.max(Math.ceil((width * 9) / 16), MIN_HEIGHT) };
}

/** The oEmbed response object, fields in the original's order. */
export interface OembedData {
  version: '1.0';
  provider_name: string;
  provider_url: string;
  author_name: string;
  author_url: string;
  title: string;
  type: 'rich';
  width: number;
  height: number;
  html: string;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

/** The oEmbed object of a post that may be embedded. */
export async function embedDataForPost(ctx: AppContext, post: PostRow, maxwidth: unknown): Promise<OembedData> {
  const { width, height } = embedSize(maxwidth);
  const siteName = String(await ctx.options.get('blogname'));
  const author =
    post.author > 0
      ? await ctx.db.selectFrom('users').select(['display_name', 'nicename', 'login']).where('id', '=', post.author).executeTakeFirst()
      : undefined;
  const permalink = permalinkFor(ctx, post);
  const title = embedTitle(post);
  const data: OembedData = {
    version: '1.0',
    provider_name: siteName,
    provider_url: ctx.urls.home,
    author_name: author ? author.display_name : siteName,
    author_url: author ? authorArchiveUrl(ctx, author.nicename || author.login) : ctx.urls.home,
    title,
    type: 'rich',
    width,
    height,
    html: embedHtml({ permalink, title, siteName, width, height }),
  };
  if (post.image_url !== '') {
    // The original asks for the featured image at `width` × any height: no smaller size is that tall,
    // so it is the image's own file, its size fitted to `width` (never enlarged).
    const facts = await mediaFactsByUrl(ctx.db, ctx.urls.home, post.image_url);
    const [thumbWidth, thumbHeight] = facts ? constrainDimensions(facts.width, facts.height, width, 99999) : [width, height];
    data.thumbnail_url = post.image_url;
    // CASE: an image URL that is not in the media library has no known size: the frame's is reported.
    data.thumbnail_width = thumbWidth;
    data.thumbnail_height = thumbHeight;
  }
  return data;
}

/** The oEmbed object for a URL of this site, or undefined when it names no embeddable post. */
export async function embedDataForUrl(ctx: AppContext, url: string, maxwidth: unknown): Promise<OembedData | undefined> {
  const post = await resolvePermalink(ctx, url);
  return post ? embedDataForPost(ctx, post, maxwidth) : undefined;
}
