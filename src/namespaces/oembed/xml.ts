/**
 * @module namespaces/oembed/xml
 * oEmbed XML: our own output (`_oembed_create_xml`) and reading a provider's XML answer
 * (`WP_oEmbed::_parse_xml`).
 */

/** `esc_html`: the five special characters as entities. */
export function escapeXmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return '1';
  return String(value);
}

function appendChildren(data: Record<string, unknown> | unknown[], out: string[]): void {
  for (const [key, value] of Object.entries(data)) {
    // Numeric keys (list items) become <oembed> elements, as in the original.
    const name = /^\d+$/.test(key) ? 'oembed' : key;
    if (value !== null && typeof value === 'object') {
      out.push(`<${name}>`);
      appendChildren(value as Record<string, unknown>, out);
      out.push(`</${name}>`);
    } else {
      out.push(`<${name}>${escapeXmlText(scalarText(value))}</${name}>`);
    }
  }
}

/** An object as an `<oembed>` document: one element per key, nested objects nested, values escaped. */
export function toOembedXml(data: Record<string, unknown>): string {
  const out: string[] = ['<?xml version="1.0"?>\n<oembed>'];
  appendChildren(data, out);
  out.push('</oembed>\n');
  return out.join('');
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, ent: string) => {
    if (ent.startsWith('#')) {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return XML_ENTITIES[ent] ?? m;
  });
}

/** Element content as text: CDATA verbatim, character data decoded, nested markup dropped. */
function elementText(content: string): string {
  let out = '';
  for (const m of content.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>|(<[^>]*>)|([^<]+|<)/g)) {
    if (m[1] !== undefined) out += m[1];
    else if (m[3] !== undefined) out += decodeEntities(m[3]);
  }
  return out;
}

/**
 * The children of a provider's XML root as strings, or undefined when the text is no such document.
 * Documents with a DOCTYPE are refused (no entity expansion of any kind).
 */
export function parseOembedXml(text: string): Record<string, string> | undefined {
  const body = text.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>)?\s*/, '').replace(/<!--[\s\S]*?-->/g, '');
  if (/<!DOCTYPE/i.test(body)) return undefined;
  const root = /^<([A-Za-z_][\w.-]*)(?:\s[^>]*)?>([\s\S]*)<\/\1\s*>\s*$/.exec(body);
  if (!root) return undefined;
  const out: Record<string, string> = {};
  const child = /<([A-Za-z_][\w.-]*)(?:\s[^>]*?)?(?:\/>|>((?:<!\[CDATA\[[\s\S]*?\]\]>|[\s\S])*?)<\/\1\s*>)/g;
  for (const m of root[2]!.matchAll(child)) {
    if (m[1] === '__proto__') continue;
    out[m[1]!] = elementText(m[2] ?? '');
  }
  return out;
}
