/**
 * @module rest/wp-sanitize
 * WordPress's text and URL cleaning as the REST schema sanitiser applies it: `sanitize_text_field`,
 * `sanitize_textarea_field` (with PHP `strip_tags`), `esc_url_raw` (with `wp_kses_bad_protocol`) and
 * `sanitize_hex_color`. Other modules use them directly for values WordPress cleans the same way.
 *
 * @example
 * sanitizeTextField('  a\n\t<b>b</b>  ');   // 'a b'
 * escUrlRaw('javascript:alert(1)');        // ''
 * escUrlRaw('example.com');                // 'http://example.com'
 */
import { phpString } from './php-query.js';
import { asciiLower, isContainer, phpLtrim, phpTrim } from './php-builtins.js';
import { isHexColor } from './formats.js';

const WHITESPACE_RUNS = /[\r\n\t ]+/;
const SPACE_RUNS = / +/g;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const HTML_SPECIALS = /&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)|[<>"']/gi;
const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

function escHtml(text: string): string {
  return text.replace(HTML_SPECIALS, (c) => HTML_ENTITIES[c] ?? c);
}

/** PHP `strip_tags`: tags (quotes respected), comments; a `<` before whitespace is text. */
function stripTags(text: string): string {
  const parts: string[] = [];
  let textFrom = 0; // start of the text run being kept, while outside tags and comments
  let inTag = false;
  let inComment = false;
  let quote = '';
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inComment) {
      if (text.startsWith('-->', i)) {
        inComment = false;
        i += 2;
        textFrom = i + 1;
      }
    } else if (!inTag) {
      if (c !== '<' || ' \t\n\r\v\f'.includes(text[i + 1] ?? 'x')) continue;
      parts.push(text.slice(textFrom, i));
      if (text.startsWith('!--', i + 1)) {
        inComment = true;
        i += 3;
      } else inTag = true;
    } else if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '<') {
      depth++;
    } else if (c === '>') {
      if (depth > 0) depth--;
      else {
        inTag = false;
        textFrom = i + 1;
      }
    }
  }
  if (!inTag && !inComment) parts.push(text.slice(textFrom));
  return parts.join('');
}

/**
 * `wp_pre_kses_less_than`: a `<` not closed by `>` before the next `<` (or the end) is escaped with
 * the text up to there (`/<[^>]*?((?=<)|>|$)/`), as one linear scan. Such pieces follow each other
 * directly, so each run of them is escaped at once.
 */
export function escapeLoneLessThans(text: string): string {
  const parts: string[] = [];
  let from = 0;
  let run = -1; // start of the current run of unclosed pieces
  for (let lt = text.indexOf('<'); lt !== -1; ) {
    let k = lt + 1;
    while (k < text.length && text[k] !== '<' && text[k] !== '>') k++;
    if (text[k] === '>') {
      if (run !== -1) {
        parts.push(escHtml(text.slice(run, lt)));
        from = lt;
        run = -1;
      }
      lt = text.indexOf('<', k + 1);
      continue;
    }
    if (run === -1) {
      parts.push(text.slice(from, lt));
      run = lt;
    }
    lt = k < text.length ? k : -1;
  }
  parts.push(run !== -1 ? escHtml(text.slice(run)) : text.slice(from));
  return parts.join('');
}

const NONE = Number.POSITIVE_INFINITY;

/**
 * Removes `<script …>…</script>` and `<style …>…</style>` blocks as
 * `/<(script|style)[^>]*?>.*?<\/\1>/si` does (each opening tag to the nearest matching close,
 * case-insensitive, an unclosed one left alone), in linear time: the regex rescans the rest of the
 * text from every opening tag.
 */
function stripScriptStyle(text: string): string {
  const lower = asciiLower(text);
  let out = '';
  let from = 0;
  let gt = -1;
  const close: Record<string, number> = { script: -1, style: -1 };
  for (let at = lower.indexOf('<s'); at !== -1; at = lower.indexOf('<s', Math.max(at + 1, from))) {
    const name = lower.startsWith('script', at + 1) ? 'script' : lower.startsWith('style', at + 1) ? 'style' : '';
    if (name === '') continue;
    // The first `>` after the name, then the first `</name>` after that `>`: both only move forward,
    // so a found position stays valid for later openings until they pass it.
    if (gt < at + 1 + name.length) gt = lower.indexOf('>', at + 1 + name.length);
    if (gt === -1) break;
    let end = close[name]!;
    if (end !== NONE && end <= gt) {
      end = lower.indexOf(`</${name}>`, gt + 1);
      close[name] = end = end === -1 ? NONE : end;
    }
    if (end === NONE) continue;
    out += text.slice(from, at);
    from = end + name.length + 3;
  }
  return out + text.slice(from);
}

/** WordPress `wp_strip_all_tags` (line breaks kept): script/style blocks, then tags, removed; trimmed. */
export function wpStripAllTags(text: string): string {
  return phpTrim(stripTags(stripScriptStyle(text)));
}

/** True for the ASCII hex digits. */
function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102);
}

/**
 * Removes every three-character sequence `removable` accepts, again and again until none is left
 * (WordPress loops `preg_match` + `str_replace`), in one pass: such sequences start with `%` and
 * cannot overlap, so removing them as they complete on a stack gives the same text.
 */
function removeEscapesRepeatedly(text: string, removable: (a: string, b: string) => boolean): { text: string; found: boolean } {
  if (!text.includes('%')) return { text, found: false };
  const stack: string[] = [];
  let found = false;
  for (const c of text) {
    stack.push(c);
    const n = stack.length;
    if (n >= 3 && stack[n - 3] === '%' && removable(stack[n - 2]!, stack[n - 1]!)) {
      stack.length = n - 3;
      found = true;
    }
  }
  return { text: found ? stack.join('') : text, found };
}

const isPercentOctet = (a: string, b: string) => isHex(a.charCodeAt(0)) && isHex(b.charCodeAt(0));
const isEncodedCrLf = (a: string, b: string) => a === '0' && 'dDaA'.includes(b);

function sanitizeText(value: unknown, keepNewlines: boolean): string {
  if (isContainer(value)) return '';
  let text = phpString(value);
  if (LONE_SURROGATE.test(text)) return '';
  if (text.includes('<')) {
    text = escapeLoneLessThans(text);
    text = phpTrim(stripTags(stripScriptStyle(text)));
    text = text.replaceAll('<\n', '&lt;\n');
  }
  if (!keepNewlines) text = text.split(WHITESPACE_RUNS).join(' ');
  text = phpTrim(text);
  const stripped = removeEscapesRepeatedly(text, isPercentOctet);
  return stripped.found ? phpTrim(stripped.text.replace(SPACE_RUNS, ' ')) : text;
}

/**
 * WordPress `sanitize_text_field`: invalid UTF-8 → `""`, tags stripped (a lone `<` becomes `&lt;`),
 * whitespace runs collapsed to one space, trimmed, percent-encoded octets removed.
 */
export function sanitizeTextField(value: unknown): string {
  return sanitizeText(value, false);
}

/** WordPress `sanitize_textarea_field`: as {@link sanitizeTextField} but newlines are kept. */
export function sanitizeTextareaField(value: unknown): string {
  return sanitizeText(value, true);
}

const URL_DISALLOWED = /[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi;
const MAILTO = /^mailto:/i;
const PHP_FILE = /^[a-z0-9-]+?\.php/i;
const URL_FRONT = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i;
const URL_BRACKETS = /[[\]]/g;
const COLON_ENTITY_UNTERMINATED = /(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi;
const PROTOCOL_SEPARATOR = /:|&#0*58;|&#x0*3a;|&colon;/i;
const DECIMAL_ENTITY = /&#(\d+);/g;
const HEX_ENTITY = /&#x([0-9a-f]+);/gi;
const ASCII_WHITESPACE = /[\t\n\v\f\r ]/g;
const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set([
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed',
  'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
]);

function badProtocolOnce2(scheme: string): string {
  const decoded = scheme
    .replace(DECIMAL_ENTITY, (_, n: string) => String.fromCharCode(Number(n) % 256))
    .replace(HEX_ENTITY, (_, h: string) => String.fromCharCode(parseInt(h, 16) % 256))
    .replace(ASCII_WHITESPACE, '');
  const lower = asciiLower(decoded);
  return ALLOWED_PROTOCOLS.has(lower) ? `${lower}:` : '';
}

function badProtocolOnce(content: string, depth: number): string {
  const text = content.replace(COLON_ENTITY_UNTERMINATED, '$1;');
  const m = PROTOCOL_SEPARATOR.exec(text);
  if (!m || text.slice(0, m.index).includes('/?')) return text;
  let rest = phpTrim(text.slice(m.index + m[0].length));
  const protocol = badProtocolOnce2(text.slice(0, m.index));
  if (protocol === 'feed:') {
    if (depth > 2) return '';
    rest = badProtocolOnce(rest, depth + 1);
    if (rest === '' || rest === '0') return rest;
  }
  return protocol + rest;
}

/** `wp_kses_bad_protocol` (input already free of NUL and control characters). */
export function badProtocol(url: string): string {
  if (url.startsWith('https://') || url.startsWith('http://')) return url;
  let content = url;
  let original: string;
  let iterations = 0;
  do {
    original = content;
    content = badProtocolOnce(content, 1);
  } while (original !== content && ++iterations < 6);
  return original !== content ? '' : content;
}

/**
 * WordPress `esc_url_raw` / `sanitize_url`: unsafe characters removed, `http://` added to a
 * scheme-less host, brackets outside the authority percent-encoded, and `""` for a scheme outside
 * `wp_allowed_protocols` (`javascript:`, `data:`, …).
 */
export function escUrlRaw(value: unknown): string {
  if (isContainer(value)) return '';
  const raw = phpString(value);
  if (raw === '') return raw;
  let url = phpLtrim(raw).replaceAll(' ', '%20').replace(URL_DISALLOWED, '');
  if (url === '') return url;
  if (!MAILTO.test(url)) url = removeEscapesRepeatedly(url, isEncodedCrLf).text;
  url = url.replaceAll(';//', '://');
  if (!url.includes(':') && !'/#?'.includes(url[0]!) && !PHP_FILE.test(url)) url = 'http://' + url;
  if (url.includes('[') || url.includes(']')) {
    const front = URL_FRONT.exec(url)?.[0] ?? '';
    url = front + url.slice(front.length).replace(URL_BRACKETS, (b) => (b === '[' ? '%5B' : '%5D'));
  }
  if (url[0] === '/') return url;
  const good = badProtocol(url);
  return asciiLower(good) !== asciiLower(url) ? '' : good;
}

/** `sanitize_hex_color`, cast to string as `rest_sanitize_value_from_schema` does: the colour or `""`. */
export function sanitizeHexColor(value: unknown): string {
  return value !== '' && isHexColor(value) ? phpString(value) : '';
}
