/**
 * @module content/kses
 * WordPress's kses HTML filter, which post content by users without `unfiltered_html` goes through
 * on save (`wp_filter_post_kses` for content and excerpts, `wp_filter_kses` for titles): tags and
 * attributes outside the allow-list (`content/kses-allowed.ts`) are dropped — `<script>`, `<style>`,
 * `<iframe>`, `on*` handlers —, URL attributes lose protocols outside `wp_allowed_protocols`
 * (`javascript:`, `data:`), `style` keeps only safe declarations, stray `<`/`>`/`&` are escaped.
 *
 * The same steps as kses.php (`wp_kses_no_null`, `wp_kses_normalize_entities`, `pre_kses`'s
 * `wp_pre_kses_less_than`, `wp_kses_split`, `wp_kses_split2`, `wp_kses_attr`, `wp_kses_hair`), written
 * as forward scans so the time is linear in the input: every regex below is anchored (sticky) and
 * consumes what it reads. Like WordPress, the text between a dropped tag pair stays, as text
 * (`<script>x</script>` → `x`).
 *
 * Departures, all towards stricter: `url(…)` in `style` is dropped (WordPress checks its protocol),
 * comments nested deeper than {@link MAX_COMMENT_DEPTH} are dropped.
 *
 * @example
 * ksesPost('<p onclick="x()">Hi <script>alert(1)</script></p>'); // '<p>Hi alert(1)</p>'
 */
import { badProtocol, escapeLoneLessThans } from '../rest/wp-sanitize.js';
import { ENTITY_NAMES, GLOBAL_ATTRIBUTES, POST_TAGS, SAFE_CSS_PROPERTIES, TITLE_TAGS, URI_ATTRIBUTES, VALUELESS_ONLY } from './kses-allowed.js';

type AllowedHtml = ReadonlyMap<string, ReadonlySet<string>>;

const POST_HTML: AllowedHtml = new Map(Object.entries(POST_TAGS).map(([tag, attrs]) => [tag, new Set([...attrs, ...GLOBAL_ATTRIBUTES])]));
const TITLE_HTML: AllowedHtml = new Map(Object.entries(TITLE_TAGS).map(([tag, attrs]) => [tag, new Set(attrs)]));

const MAX_COMMENT_DEPTH = 4;

/** `wp_filter_post_kses` (unslashed): post content and excerpts. */
export function ksesPost(html: string): string {
  return kses(html, POST_HTML, 0);
}

/** `wp_filter_kses` (unslashed): titles, with the small `$allowedtags` list. */
export function ksesTitle(html: string): string {
  return kses(html, TITLE_HTML, 0);
}

function kses(content: string, allowed: AllowedHtml, depth: number): string {
  let text = noNull(content, false);
  text = normalizeEntities(text);
  text = escapeLoneLessThans(text);
  return split(text, allowed, depth);
}

// ---- wp_kses_no_null, wp_kses_normalize_entities ---------------------------------------------

const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;

function noNull(text: string, removeSlashZero: boolean): string {
  const out = text.replace(CONTROL, '');
  return removeSlashZero ? out.replace(/\\+0+/g, '') : out;
}

function validUnicode(n: number): boolean {
  return n === 0x9 || n === 0xa || n === 0xd || (n >= 0x20 && n <= 0xd7ff) || (n >= 0xe000 && n <= 0xfffd) || (n >= 0x10000 && n <= 0x10ffff);
}

function ltrimZeros(s: string): string {
  let i = 0;
  while (i < s.length && s[i] === '0') i++;
  return s.slice(i);
}

/** Every `&` escaped, then the allowed named entities and valid numeric ones restored. */
function normalizeEntities(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replace(/&amp;([A-Za-z]{2,8}[0-9]{0,2});/g, (_m, name: string) => (ENTITY_NAMES.has(name) ? `&${name};` : `&amp;${name};`))
    .replace(/&amp;#(0*[0-9]{1,7});/g, (_m, digits: string) => {
      if (/^0*$/.test(digits)) return '';
      return validUnicode(Number(digits)) ? `&#${ltrimZeros(digits).padStart(3, '0')};` : `&amp;#${digits};`;
    })
    .replace(/&amp;#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_m, hex: string) => {
      if (/^0*$/.test(hex)) return '';
      return validUnicode(parseInt(hex, 16)) ? `&#x${ltrimZeros(hex)};` : `&amp;#x${hex};`;
    });
}

// ---- wp_kses_split: `%(<!--.*?(-->|$))|(<[^>]*(>|$)|>)%` -------------------------------------

/** `indexOf` that remembers its last answer, so scanning forward many times stays linear. */
function forwardFinder(text: string, needle: string): (from: number) => number {
  let at = -2;
  return (from) => {
    if (at === -1 || (at >= from && at !== -2)) return at;
    at = text.indexOf(needle, from);
    return at;
  };
}

function split(text: string, allowed: AllowedHtml, depth: number): string {
  const out: string[] = [];
  const nextCommentEnd = forwardFinder(text, '-->');
  const nextNewline = forwardFinder(text, '\n');
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '<' && c !== '>') continue;
    out.push(text.slice(from, i));
    let end: number; // exclusive end of the token
    if (c === '>') end = i + 1;
    else {
      end = -1;
      if (text.startsWith('<!--', i)) {
        // `.` does not cross a newline; `$` is the end (or just before a final newline).
        const close = nextCommentEnd(i + 4);
        const newline = nextNewline(i + 4);
        if (close !== -1 && (newline === -1 || close < newline)) end = close + 3;
        else if (newline === -1) end = text.length;
        else if (newline === text.length - 1) end = newline;
      }
      if (end === -1) {
        const gt = text.indexOf('>', i + 1);
        end = gt === -1 ? text.length : gt + 1;
      }
    }
    out.push(split2(text.slice(i, end), allowed, depth));
    from = end;
    i = end - 1;
  }
  out.push(text.slice(from));
  return out.join('');
}

const WS = '[ \\t\\n\\v\\f\\r]';
const TAG = new RegExp(`^<${WS}*(/${WS}*)?([a-zA-Z0-9-]+)([^>]*)>?$`);

/** One tag, comment or stray `>`. */
function split2(token: string, allowed: AllowedHtml, depth: number): string {
  const content = token.replaceAll('\\"', '"');
  if (content[0] !== '<') return '&gt;';
  if (content.startsWith('<!--')) {
    if (depth >= MAX_COMMENT_DEPTH) return '';
    let inner = content.replaceAll('<!--', '').replaceAll('-->', '');
    for (let rounds = 0; rounds < MAX_COMMENT_DEPTH; rounds++) {
      const next = kses(inner, allowed, depth + 1);
      if (next === inner) break;
      inner = next;
    }
    if (inner === '') return '';
    inner = inner.replace(/--+/g, '-').replace(/-$/, '');
    return `<!--${inner}-->`;
  }
  const m = TAG.exec(content);
  if (!m) return '';
  const [, slash, elem, attrlist] = m as unknown as [string, string | undefined, string, string];
  const attrs = allowed.get(elem.toLowerCase());
  if (!attrs) return '';
  if (slash !== undefined && slash.trim() !== '') return `</${elem}>`;
  return attr(elem, attrlist, attrs);
}

// ---- wp_kses_attr, wp_kses_attr_check --------------------------------------------------------

const XHTML_SLASH = new RegExp(`${WS}*/${WS}*$`);
const DATA_ATTRIBUTE = /^data-[a-z0-9_-]+$/i;

function attr(elem: string, attrlist: string, allowedAttrs: ReadonlySet<string>): string {
  const xhtmlSlash = XHTML_SLASH.test(attrlist) ? ' /' : '';
  if (allowedAttrs.size === 0) return `<${elem}${xhtmlSlash}>`;
  const elemLow = elem.toLowerCase();
  let kept = '';
  for (const a of hair(attrlist)) {
    const nameLow = a.name.toLowerCase();
    if (!allowedAttrs.has(nameLow) && !(allowedAttrs.has('data-*') && DATA_ATTRIBUTE.test(nameLow))) continue;
    let whole = a.whole;
    if (nameLow === 'style') {
      const css = safeCss(a.value);
      if (css === '') continue;
      whole = whole.replaceAll(a.value, css);
    }
    if (VALUELESS_ONLY[elemLow]?.includes(nameLow) && !a.valueless) continue;
    kept += ` ${whole}`;
  }
  return `<${elem}${kept.replace(/[<>]/g, '')}${xhtmlSlash}>`;
}

// ---- wp_kses_hair ----------------------------------------------------------------------------

interface Attribute {
  name: string;
  value: string;
  whole: string;
  valueless: boolean;
}

const NAME = /[_a-zA-Z][-_a-zA-Z0-9:.]*/y;
const EQUALS = new RegExp(`${WS}*=${WS}*`, 'y');
const SPACES = new RegExp(`${WS}+`, 'y');
const DOUBLE_QUOTED = new RegExp(`"([^"]*)"(?:${WS}+|/?$)`, 'y');
const DOUBLE_QUOTED_EAT = new RegExp(`"[^"]*"(?:${WS}+|$)`, 'y');
const SINGLE_QUOTED = new RegExp(`'([^']*)'(?:${WS}+|/?$)`, 'y');
const SINGLE_QUOTED_EAT = new RegExp(`'[^']*'(?:${WS}+|$)`, 'y');
const UNQUOTED = new RegExp(`([^ \\t\\n\\v\\f\\r"']+)(?:${WS}+|/?$)`, 'y');
const UNQUOTED_EAT = new RegExp(`[^ \\t\\n\\v\\f\\r"']+(?:${WS}+|$)`, 'y');
/** `wp_kses_html_error`: skips to the next whitespace, over quoted runs. */
const HTML_ERROR = new RegExp(`(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^ \\t\\n\\v\\f\\r])*${WS}*`, 'y');

function stickyMatch(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

function uriValue(name: string, value: string): string {
  return URI_ATTRIBUTES.has(name.toLowerCase()) ? badProtocolOf(value) : value;
}

/** `wp_kses_bad_protocol`, with its own `wp_kses_no_null` first. */
function badProtocolOf(value: string): string {
  return badProtocol(noNull(value, true));
}

/** The attributes of a tag, the first of a name winning; URL values checked for their protocol. */
function hair(text: string): Attribute[] {
  const found = new Map<string, Attribute>();
  const add = (a: Attribute) => {
    if (!found.has(a.name)) found.set(a.name, a);
  };
  let mode = 0;
  let name = '';
  let at = 0;
  while (at < text.length) {
    let working = false;
    if (mode === 0) {
      const m = stickyMatch(NAME, text, at);
      if (m) {
        name = m[0];
        at += m[0].length;
        working = true;
        mode = 1;
      }
    } else if (mode === 1) {
      const eq = stickyMatch(EQUALS, text, at);
      if (eq) {
        at += eq[0].length;
        working = true;
        mode = 2;
      } else {
        const sp = stickyMatch(SPACES, text, at);
        if (sp) {
          add({ name, value: '', whole: name, valueless: true });
          at += sp[0].length;
          working = true;
          mode = 0;
        }
      }
    } else {
      for (const [re, eat, quote] of [
        [DOUBLE_QUOTED, DOUBLE_QUOTED_EAT, '"'],
        [SINGLE_QUOTED, SINGLE_QUOTED_EAT, "'"],
        [UNQUOTED, UNQUOTED_EAT, '"'],
      ] as const) {
        const m = stickyMatch(re, text, at);
        if (!m) continue;
        const value = uriValue(name, m[1]!);
        add({ name, value, whole: `${name}=${quote}${value}${quote}`, valueless: false });
        const eaten = stickyMatch(eat, text, at);
        if (eaten) at += eaten[0].length;
        working = true;
        mode = 0;
        break;
      }
    }
    if (!working) {
      const skip = stickyMatch(HTML_ERROR, text, at);
      at += skip && skip[0].length > 0 ? skip[0].length : 1;
      mode = 0;
    }
  }
  if (mode === 1) add({ name, value: '', whole: name, valueless: true });
  return [...found.values()];
}

// ---- safecss_filter_attr ---------------------------------------------------------------------

/** Functions whose calls WordPress removes before looking for unsafe characters. */
const CSS_FUNCTIONS = /\b(?:var|calc|min|max|minmax|clamp|repeat)\(/gi;

/** `text` without the balanced `fn(…)` calls of {@link CSS_FUNCTIONS} (one forward scan). */
function withoutCssFunctions(text: string): string {
  let out = '';
  let from = 0;
  CSS_FUNCTIONS.lastIndex = 0;
  for (let m = CSS_FUNCTIONS.exec(text); m; m = CSS_FUNCTIONS.exec(text)) {
    if (m.index < from) continue;
    let level = 0;
    let k = m.index + m[0].length - 1;
    for (; k < text.length; k++) {
      if (text[k] === '(') level++;
      else if (text[k] === ')' && --level === 0) break;
    }
    if (level !== 0) break; // unbalanced: leave the rest for the unsafe-character test
    out += text.slice(from, m.index);
    from = k + 1;
    CSS_FUNCTIONS.lastIndex = from;
  }
  return out + text.slice(from);
}

const UNSAFE_CSS = /[\\(&=}]|\/\*/;

/** `safecss_filter_attr`: the declarations of allowed properties without unsafe characters, `; `-joined. */
function safeCss(css: string): string {
  const kept: string[] = [];
  for (const raw of noNull(css, true).replace(/[\n\r\t]/g, '').trim().split(';')) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    if (colon !== -1) {
      const property = item.slice(0, colon).trim().toLowerCase();
      const isCustomProperty = /^--[a-zA-Z0-9-_]+$/.test(property);
      if (!SAFE_CSS_PROPERTIES.has(property) && !isCustomProperty) continue;
      if (/url\s*\(/i.test(item)) continue;
    }
    if (!UNSAFE_CSS.test(withoutCssFunctions(item))) kept.push(item);
  }
  return kept.join('; ');
}
