/**
 * Test support for contact forms: multipart posts through the app, and a local SMTP server.
 */
import type { TestApp, TestResponse } from '../../test-support/harness.js';

export const NS = '/contact-form/v1';

export type Part = string | string[] | { filename: string; type: string; data: Buffer };

/** POSTs `fields` as multipart/form-data (arrays as repeated `name[]`). */
export async function postMultipart(t: TestApp, path: string, fields: Record<string, Part>, headers: Record<string, string> = {}): Promise<TestResponse> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) v.forEach((x) => fd.append(`${k}[]`, x));
    else if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, new Blob([new Uint8Array(v.data)], { type: v.type }), v.filename);
  }
  const encoded = new Request('http://x/', { method: 'POST', body: fd });
  const payload = Buffer.from(await encoded.arrayBuffer());
  const res = await t.app.inject({
    method: 'POST',
    url: `${t.ctx.config.apiPath}${path}`,
    headers: { 'content-type': encoded.headers.get('content-type')!, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)', ...headers },
    payload,
  });
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers: flat, body, text: res.body };
}

/** The header block of a raw message, unfolded, as name → values. */
export function headersOf(raw: string): Map<string, string[]> {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const out = new Map<string, string[]>();
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).toLowerCase();
    out.set(name, [...(out.get(name) ?? []), line.slice(i + 1).trim()]);
  }
  return out;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) of a header value. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}
