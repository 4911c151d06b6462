/**
 * @module namespaces/oembed/post-text
 * A post's title and excerpt as WordPress's embeds show them. A password-protected post is embedded
 * (`get_oembed_response_data` asks only that it be publicly viewable) but shows none of its text: its
 * title reads "Protected: <title>" (`get_the_title`, `protected_title_format`) and its excerpt is a
 * notice (`get_the_excerpt` while `post_password_required`). The password is never asked for here (the
 * site keeps no `wp-postpass_` cookie), so a protected post's text always stays hidden.
 */
import type { PostRow } from './permalinks.js';

const MESSAGES = {
  protectedTitle: (title: string) => `Protected: ${title}`,
  protectedExcerpt: 'There is no excerpt because this is a protected post.',
} as const;

/** Whether the post has a password (`post_password_required`, nobody having given it). */
export function isProtected(post: Pick<PostRow, 'password'>): boolean {
  return post.password !== '';
}

/** `get_the_title` on the front end: a protected post's title behind "Protected: ". */
export function embedTitle(post: Pick<PostRow, 'title' | 'password'>): string {
  return isProtected(post) ? MESSAGES.protectedTitle(post.title) : post.title;
}

/** The notice `get_the_excerpt` gives instead of a protected post's excerpt. */
export const PROTECTED_EXCERPT = MESSAGES.protectedExcerpt;
