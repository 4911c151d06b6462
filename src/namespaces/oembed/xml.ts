/**
 * @module namespaces/oembed/xml
 * Our oEmbed XML output (`_oembed_create_xml`). Reading a provider's XML lives in the remote client.
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
