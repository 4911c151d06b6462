/**
 * @module namespaces/seo/social
 * Validation of social profile values (`is_social_url_valid`, `is_twitter_id_valid`).
 */

/** Empty, or an absolute http(s) URL with a host. */
export function isSocialUrlValid(url: string): boolean {
  if (url === '') return true;
  if (/\s/.test(url)) return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(u.hostname);
  } catch {
    return false;
  }
}

/**
 * The handle a Twitter/X value stands for: a handle (`@name` or `name`) or a profile URL on
 * twitter.com / x.com; '' for an empty value; undefined when invalid.
 */
export function twitterHandle(value: string): string | undefined {
  if (value === '') return '';
  let handle = value;
  const m = /^(?:https?:\/\/)?(?:www\.)?(?:twitter|x)\.com\/(.+?)\/?$/i.exec(value);
  if (m) handle = m[1]!;
  handle = handle.replace(/^@/, '');
  return /^[A-Za-z0-9_]{1,25}$/.test(handle) ? handle : undefined;
}
