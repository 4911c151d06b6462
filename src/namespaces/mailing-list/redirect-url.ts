/**
 * @module namespaces/mailing-list/redirect-url
 * Where a successful sign-up sends the browser when the form has a redirect URL (the original's
 * `get_redirect_url` with its dynamic content tags, then `wp_redirect`): `{email}`, `{data key=…}`,
 * `{cookie name=…}`, `{ip}`, `{date}`, `{time}`, `{language}`, `{current_url}`, `{current_path}`,
 * `{user property=…}`, `{post property=…}` and `{response}` are replaced (URL-encoded); other text in
 * braces is left to `wp_sanitize_redirect`, which drops the braces.
 *
 * @example
 * // form.redirect = 'https://example.org/thanks?e={email}'
 * await redirectUrl(ctx, form, req); // 'https://example.org/thanks?e=ann%40example.org'
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { siteTimeZone } from '../../content/posts.js';
import { phpTrim, phpTruthy } from '../../rest/php-builtins.js';
import { phpString } from '../../rest/php-query.js';
import type { RestRequest } from '../../rest/route.js';
import type { SignupForm } from './forms.repo.js';

// A name, then nothing or a space and more: `( +[^{}\n]+)*` matches the same texts, but its nested
// repeats backtrack exponentially on a tag left open (`{data key=a a a a …` froze the event loop).
const TAG = /\{(\w+)((?: [^{}\n]+)?)\}/g;
const ATTRIBUTE = /([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s'"]+))(?:\s|$)/g;

/** `shortcode_parse_atts` for `name="value"`, `name='value'` and `name=value` (names lower-cased). */
function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTRIBUTE)) out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  return out;
}

/** PHP `urlencode`: letters, digits and `-_.` stay, a space is `+`. */
export function urlencode(text: string): string {
  return Array.from(Buffer.from(text, 'utf8'))
    .map((b) => (/[A-Za-z0-9_.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/** `sanitize_email`: the address with the characters an address may not hold removed, or '' when it has no usable shape. */
export function sanitizeEmail(email: string): string {
  if (Buffer.byteLength(email) < 6 || email.indexOf('@', 1) < 0) return '';
  const at = email.indexOf('@');
  const local = email.slice(0, at).replace(/[^a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]/g, '');
  if (local === '') return '';
  let domain = email.slice(at + 1).replace(/\.{2,}/g, '');
  domain = phpTrim(domain, ' \t\n\r\0\x0B.');
  const subs = domain === '' ? [] : domain.split('.');
  if (subs.length < 2) return '';
  const kept = subs.map((sub) => phpTrim(sub, ' \t\n\r\0\x0B-').replace(/[^a-z0-9-]+/gi, '')).filter((sub) => sub !== '');
  return kept.length < 2 ? '' : `${local}@${kept.join('.')}`;
}

/**
 * `wp_sanitize_redirect`: spaces and UTF-8 encoded, then every character a URL may not hold
 * dropped, and `%0d`/`%0a` removed until none is left.
 */
export function sanitizeRedirect(location: string): string {
  let out = location.replace(/ /g, '%20');
  out = out.replace(/[^\x00-\x7F]+/g, (run) => Array.from(Buffer.from(run, 'utf8'), (b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  out = out.replace(/[^a-z0-9\-~+_.?#=&;,/:%!*[\]()@]/gi, '');
  let previous;
  do {
    previous = out;
    out = out.replace(/%0[da]/gi, '');
  } while (out !== previous);
  return out;
}

function cookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (Object.hasOwn(out, name)) continue;
    try {
      out[name] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      out[name] = pair.slice(eq + 1).trim();
    }
  }
  return out;
}

/** A request value as the `{data}` tag shows it: a list without its empty entries, joined with commas. */
function shown(value: unknown): string {
  if (value !== null && typeof value === 'object') return (Array.isArray(value) ? value : Object.values(value)).filter(phpTruthy).map(phpString).join(', ');
  return phpString(value);
}

/** The tag values of a request: what `{name …}` stands for, or undefined for a name that is no tag. */
async function tagValue(ctx: AppContext, req: RestRequest, name: string, args: Record<string, string>): Promise<string | undefined> {
  const request = { ...req.query, ...req.body };
  const fallback = args.default ?? '';
  switch (name) {
    case 'email':
      for (const key of ['EMAIL', 'email', 'email_address', 'email-address']) {
        const v = request[key];
        if (typeof v === 'string' && phpTruthy(v)) return sanitizeEmail(v);
      }
      return req.user?.email ?? '';
    case 'data':
      if (!args.key) return '';
      return Object.hasOwn(request, args.key) && request[args.key] !== undefined ? shown(request[args.key]) : fallback;
    case 'cookie': {
      if (!args.name) return '';
      const jar = cookies(req.headers.cookie);
      return Object.hasOwn(jar, args.name) ? jar[args.name]! : fallback;
    }
    case 'ip':
      return req.ip;
    case 'date':
    case 'time': {
      const now = DateTime.fromJSDate(ctx.now(), { zone: await siteTimeZone(ctx.options) });
      return now.toFormat(name === 'date' ? 'yyyy/MM/dd' : 'HH:mm:ss');
    }
    case 'language':
      return 'en_US';
    case 'current_url':
      // The listener runs before WordPress parses the request: the page is the home page.
      return `${ctx.urls.home}/`;
    case 'current_path':
      return new URL(ctx.urls.rest(req.route)).pathname;
    case 'user': {
      const property = args.property || 'user_email';
      const user = req.user;
      const props: Record<string, unknown> = user ? { ID: user.id, user_login: user.login, user_email: user.email, display_name: user.displayName } : {};
      return Object.hasOwn(props, property) ? phpString(props[property]) : fallback;
    }
    case 'post':
      // No post is being viewed on a REST request.
      return fallback;
    case 'response':
      return '';
    default:
      return undefined;
  }
}

/** The URL to send a successful sign-up to, or '' for none. */
export async function redirectUrl(ctx: AppContext, form: SignupForm, req: RestRequest): Promise<string> {
  const setting = phpTrim(form.redirect);
  if (setting === '') return '';
  let url = '';
  let last = 0;
  for (const m of setting.matchAll(TAG)) {
    const value = await tagValue(ctx, req, m[1]!, attributes(m[2] ?? ''));
    // `{response}` is raw HTML; every other value is URL-encoded.
    url += setting.slice(last, m.index) + (value === undefined ? m[0] : m[1] === 'response' ? value : urlencode(value));
    last = m.index + m[0].length;
  }
  return sanitizeRedirect(url + setting.slice(last));
}
