/**
 * @module namespaces/oembed/sanitize-html
 * An allow-list HTML sanitiser for markup from oEmbed providers we do not control (the role of
 * `wp_filter_oembed_result`). The input is tokenised and re-serialised: only the tags and attributes
 * below survive, URLs must be absolute http(s), scripts, styles and event handlers are gone, and the
 * output is well formed. Iframes are sandboxed and joined to the embed protocol with a secret.
 *
 * @example
 * sanitizeEmbedHtml('<iframe src="https://v.test/1" onload="x()"></iframe><script>x()</script>', { secret: 'abc' });
 * // '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://v.test/1#?secret=abc" data-secret="abc"></iframe>'
 */

type AttrRule = 'text' | 'url' | 'size' | 'scrolling' | 'allow' | 'flag';

const TEXT_ONLY: Readonly<Record<string, AttrRule>> = Object.freeze({});

/** Tags kept, with the attributes each may carry. */
const ALLOWED: Readonly<Record<string, Readonly<Record<string, AttrRule>>>> = Object.freeze({
  a: { href: 'url', title: 'text' },
  blockquote: { cite: 'url' },
  iframe: {
    src: 'url',
    width: 'size',
    height: 'size',
    frameborder: 'size',
    marginwidth: 'size',
    marginheight: 'size',
    scrolling: 'scrolling',
    title: 'text',
    allow: 'allow',
    allowfullscreen: 'flag',
  },
  img: { src: 'url', alt: 'text', width: 'size', height: 'size', title: 'text' },
  p: TEXT_ONLY,
  br: TEXT_ONLY,
  div: TEXT_ONLY,
  span: TEXT_ONLY,
  em: TEXT_ONLY,
  strong: TEXT_ONLY,
  b: TEXT_ONLY,
  i: TEXT_ONLY,
  small: TEXT_ONLY,
  cite: TEXT_ONLY,
  figure: TEXT_ONLY,
  figcaption: TEXT_ONLY,
  ul: TEXT_ONLY,
  ol: TEXT_ONLY,
  li: TEXT_ONLY,
});

/** What survives in a provider's `rich` or `video` markup: a fallback blockquote with its link, and the frame. */
const FRAME_ALLOWED: Readonly<Record<string, Readonly<Record<string, AttrRule>>>> = Object.freeze({
  a: { href: 'url' },
  blockquote: TEXT_ONLY,
  iframe: ALLOWED.iframe!,
});

const VOID = new Set(['br', 'img', 'area', 'base', 'col', 'embed', 'hr', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);

/** Elements whose content the browser reads as raw text: it ends only at the matching end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

/** Elements dropped together with everything inside them. */
const DROP_WITH_CONTENT = new Set([...RAW_TEXT, 'template', 'object', 'applet', 'svg', 'math', 'select', 'head', 'frameset']);

/** Permissions an embedded frame may ask for (`allow="..."`). */
const ALLOW_FEATURES = new Set(['autoplay', 'encrypted-media', 'fullscreen', 'picture-in-picture', 'clipboard-write', 'accelerometer', 'gyroscope', 'web-share']);

const FRAME_ATTRS = 'class="wp-embedded-content" sandbox="allow-scripts" security="restricted"';
const FRAME_PREFIX = `<iframe ${FRAME_ATTRS}`;

const MAX_DEPTH = 64;
const HIDDEN_FRAME_STYLE = 'position: absolute; visibility: hidden;';

const NAMED_ENTITIES: Readonly<Record<string, string>> = Object.freeze({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' });

function decodeEntities(value: string): string {
  return value.replace(/&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([a-zA-Z]+));?/g, (m, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? m;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Escapes markup characters; a well-formed character reference is kept as written. */
function escapeKeepingEntities(text: string, quotes: boolean): string {
  return text.replace(quotes ? /&(?!#\d{1,7};|#[xX][0-9a-fA-F]{1,6};|[a-zA-Z][a-zA-Z0-9]{1,31};)|[<>"']/g : /&(?!#\d{1,7};|#[xX][0-9a-fA-F]{1,6};|[a-zA-Z][a-zA-Z0-9]{1,31};)|[<>]/g, (c) =>
    ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!,
  );
}

function escapeAttr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);
}

/**
 * An absolute http(s) URL in canonical form, or undefined. `URL` is the WHATWG parser browsers use,
 * so tabs, newlines and surrounding control characters (`java\tscript:`) are read as a browser would.
 */
function safeUrl(raw: string): string | undefined {
  try {
    const url = new URL(decodeEntities(raw));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An attribute value after its rule, or undefined to drop the attribute. */
function cleanAttr(rule: AttrRule, raw: string): string | undefined {
  switch (rule) {
    case 'text':
      return escapeKeepingEntities(raw, true);
    case 'url': {
      const url = safeUrl(raw);
      return url === undefined ? undefined : escapeAttr(url);
    }
    case 'size':
      return /^\s*\d{1,5}%?\s*$/.test(raw) ? raw.trim() : undefined;
    case 'scrolling':
      return /^(yes|no|auto)$/i.test(raw.trim()) ? raw.trim().toLowerCase() : undefined;
    case 'allow': {
      const features = raw
        .split(/[;,]/)
        .map((f) => f.trim().toLowerCase())
        .filter((f) => ALLOW_FEATURES.has(f));
      return features.length > 0 ? features.join('; ') : undefined;
    }
    case 'flag':
      return '';
  }
}

interface Tag {
  name: string;
  end: boolean;
  attrs: [string, string | undefined][];
  selfClosing: boolean;
}

/** Reads the tag starting at `pos` (a `<` followed by a letter or `/` and a letter). */
function readTag(html: string, pos: number): { tag: Tag; next: number } | undefined {
  let i = pos + 1;
  const end = html[i] === '/';
  if (end) i++;
  const nameMatch = /^[a-zA-Z][^\s/>]*/.exec(html.slice(i, i + 100));
  if (!nameMatch) return undefined;
  const tag: Tag = { name: nameMatch[0].toLowerCase(), end, attrs: [], selfClosing: false };
  i += nameMatch[0].length;
  const n = html.length;
  while (i < n) {
    const c = html[i]!;
    if (c === '>') return { tag, next: i + 1 };
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/') {
      tag.selfClosing = html[i + 1] === '>';
      i++;
      continue;
    }
    // Attribute name: up to whitespace, `/`, `>` or `=` (a leading `=` belongs to the name).
    const start = i;
    i++;
    while (i < n && !/[\s/>=]/.test(html[i]!)) i++;
    const name = html.slice(start, i).toLowerCase();
    while (i < n && /\s/.test(html[i]!)) i++;
    let value: string | undefined;
    if (html[i] === '=') {
      i++;
      while (i < n && /\s/.test(html[i]!)) i++;
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        if (close < 0) return undefined;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const vs = i;
        while (i < n && !/[\s>]/.test(html[i]!)) i++;
        value = html.slice(vs, i);
      }
    }
    if (!tag.attrs.some(([a]) => a === name)) tag.attrs.push([name, value]);
  }
  return undefined; // a tag cut off by the end of input is dropped, as browsers do
}

/** Position after the end tag `</name` (followed by whitespace, `/` or `>`) that closes a raw-text element. */
function skipRawText(html: string, from: number, name: string): number {
  const re = new RegExp(`</${name}(?=[\\s/>])[^>]*>`, 'gi');
  re.lastIndex = from;
  const m = re.exec(html);
  return m ? m.index + m[0].length : html.length;
}

export interface SanitizeOptions {
  /** Secret joining iframes and blockquotes to the embed protocol; random when omitted. */
  secret: string;
}

/** Markup reduced to the tags of `allowed`, with iframes sandboxed; no frame is hidden yet. */
function sanitize(html: string, secret: string, allowed: Readonly<Record<string, Readonly<Record<string, AttrRule>>>>): { html: string; sawBlockquote: boolean } {
  const out: string[] = [];
  const stack: string[] = [];
  /** Name and depth of an element being dropped with its content. */
  let dropping: { name: string; depth: number } | undefined;
  let sawBlockquote = false;
  let pos = 0;
  const n = html.length;

  while (pos < n) {
    const lt = html.indexOf('<', pos);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > pos) {
      if (!dropping) out.push(escapeKeepingEntities(html.slice(pos, textEnd), false));
      pos = textEnd;
      continue;
    }
    // ---- Markup at `pos`.
    if (html.startsWith('<!--', pos)) {
      const close = html.indexOf('-->', pos + 4);
      pos = close < 0 ? n : close + 3;
      continue;
    }
    if (html[pos + 1] === '!' || html[pos + 1] === '?' || (html[pos + 1] === '/' && !/[a-zA-Z]/.test(html[pos + 2] ?? ''))) {
      const close = html.indexOf('>', pos);
      pos = close < 0 ? n : close + 1;
      continue;
    }
    if (!/[a-zA-Z/]/.test(html[pos + 1] ?? '')) {
      if (!dropping) out.push('&lt;');
      pos++;
      continue;
    }
    const read = readTag(html, pos);
    if (!read) break;
    const { tag } = read;
    pos = read.next;

    if (dropping) {
      if (tag.name === dropping.name) dropping.depth += tag.end ? -1 : tag.selfClosing || VOID.has(tag.name) ? 0 : 1;
      if (dropping.depth === 0) dropping = undefined;
      continue;
    }
    if (tag.name === 'plaintext') break;

    if (tag.end) {
      const at = stack.lastIndexOf(tag.name);
      if (at >= 0) while (stack.length > at) out.push(`</${stack.pop()}>`);
      continue;
    }

    const rules = allowed[tag.name];
    if (!rules || stack.length >= MAX_DEPTH) {
      if (RAW_TEXT.has(tag.name)) pos = skipRawText(html, pos, tag.name);
      else if (DROP_WITH_CONTENT.has(tag.name) && !tag.selfClosing) dropping = { name: tag.name, depth: 1 };
      continue;
    }

    const attrs: string[] = [];
    if (tag.name === 'iframe') attrs.push(FRAME_ATTRS);
    if (tag.name === 'blockquote') {
      sawBlockquote = true;
      attrs.push('class="wp-embedded-content"', `data-secret="${escapeAttr(secret)}"`);
    }
    for (const [name, raw] of tag.attrs) {
      const rule = rules[name];
      if (rule === undefined) continue;
      if (rule === 'flag') {
        attrs.push(name);
        continue;
      }
      if (raw === undefined) continue;
      let value = cleanAttr(rule, raw);
      if (value === undefined) continue;
      if (tag.name === 'iframe' && name === 'src') {
        value = `${value.replace(/#.*$/, '')}#?secret=${escapeAttr(secret)}`;
        attrs.push(`src="${value}"`, `data-secret="${escapeAttr(secret)}"`);
        continue;
      }
      attrs.push(`${name}="${value}"`);
    }
    out.push(`<${tag.name}${attrs.length > 0 ? ` ${attrs.join(' ')}` : ''}>`);
    if (VOID.has(tag.name)) continue;
    if (tag.name === 'iframe') {
      // Iframe content is never rendered; keep the element empty.
      pos = skipRawText(html, pos, 'iframe');
      out.push('</iframe>');
      continue;
    }
    if (tag.selfClosing) {
      out.push(`</${tag.name}>`);
      continue;
    }
    stack.push(tag.name);
  }
  while (stack.length > 0) out.push(`</${stack.pop()}>`);

  return { html: out.join(''), sawBlockquote };
}

/** With a blockquote to fall back on, the frame stays hidden until it reports its height. */
function hideFrames(html: string): string {
  return html.replaceAll('<iframe class=', `<iframe style="${HIDDEN_FRAME_STYLE}" class=`);
}

/** Provider markup reduced to the allow-list, with iframes sandboxed. */
export function sanitizeEmbedHtml(html: string, options: SanitizeOptions): string {
  const clean = sanitize(html, options.secret, ALLOWED);
  return clean.sawBlockquote ? hideFrames(clean.html) : clean.html;
}

export interface FrameEmbedOptions extends SanitizeOptions {
  /** The object's `title`, given to a frame that has none (`wp_filter_oembed_iframe_title_attribute`). */
  title?: string;
}

/**
 * The `html` of a `rich` or `video` object from a provider we do not trust, as the original filters it
 * (`wp_filter_oembed_result`): one iframe (the last), preceded by the provider's blockquote fallback
 * when the markup opens with one; everything else goes. False when there is no iframe, which clients
 * read as "this cannot be embedded".
 */
export function frameEmbedHtml(html: string, options: FrameEmbedOptions): string | false {
  const clean = sanitize(html, options.secret, FRAME_ALLOWED).html;
  const start = clean.lastIndexOf('<iframe ');
  if (start < 0) return false;
  const end = clean.indexOf('</iframe>', start) + '</iframe>'.length;
  const quoteEnd = clean.startsWith('<blockquote') ? clean.indexOf('</blockquote>') + '</blockquote>'.length : -1;
  // CASE: as in the original, a blockquote counts only when it opens the markup and closes before the frame.
  const quote = quoteEnd > 0 && quoteEnd <= start ? clean.slice(0, quoteEnd) : '';
  const fallback = quote.indexOf('<blockquote', 1) < 0 ? quote : ''; // a nested one would leave it unclosed
  let frame = clean.slice(start, end);
  const title = options.title ?? '';
  if (title !== '' && !/ title="[^"]/.test(frame)) frame = frame.replace(' title=""', '').replace(FRAME_PREFIX, `${FRAME_PREFIX} title="${escapeAttr(title)}"`);
  return fallback === '' ? frame : fallback + hideFrames(frame);
}
