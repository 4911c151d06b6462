/**
 * The error catalogue: every error code the service answers with is declared once, with its status,
 * in a catalogue — `rest/errors.ts` (core, the HTTP edge), `auth/errors.ts`, each area's
 * `errors.ts` — or, for the schema validation codes (all 400), in `rest/schema.ts` / `rest/formats.ts`.
 * Everything else reaches errors through those factories, so a code never drifts to two statuses.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.(test|case)\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const isCatalogue = (path: string) => path.endsWith('errors.ts');
/** Schema validation: codes are WordPress's `rest_*` keyword codes, always 400. */
const VALIDATION = new Set(['rest/schema.ts', 'rest/formats.ts']);

interface Declaration {
  file: string;
  code: string;
  /** A number, or the expression deciding it (e.g. `loggedIn ? 403 : 401`). */
  status: string;
}

/**
 * `new RestError('code', message, status` (message may span calls; the status a number, a
 * `signedIn ? 403 : 401` choice, a `status` parameter or `authorizationStatus(req)`) and
 * `'code': [status, ...]` records.
 */
function declarations(file: string, text: string): Declaration[] {
  const out: Declaration[] = [];
  for (const m of text.matchAll(/new RestError\(\s*'([\w-]+)',[\s\S]*?,\s*(\d{3}|\w+ \? \d{3} : \d{3}|status|authorizationStatus\(\w+\))\s*[,)]/g)) {
    out.push({ file, code: m[1]!, status: m[2]! });
  }
  // A factory whose code is a parameter with a default (`forbidden(…, code = 'rest_forbidden')`).
  for (const m of text.matchAll(/\bcode = '([\w-]+)'\)\s*=>\s*new RestError\(code,[\s\S]*?,\s*(\w+ \? \d{3} : \d{3}|\d{3})\)/g)) {
    out.push({ file, code: m[1]!, status: m[2]! });
  }
  for (const m of text.matchAll(/^\s*'?([\w-]+)'?: \[(\d{3}),/gm)) out.push({ file, code: m[1]!, status: m[2]! });
  if (VALIDATION.has(file)) for (const m of text.matchAll(/\bfail\(\s*'([\w-]+)'/g)) out.push({ file, code: m[1]!, status: '400' });
  return out;
}

const declared = files.flatMap((f) => (isCatalogue(f.path) || VALIDATION.has(f.path) ? declarations(f.path, f.text) : []));

/** Codes answered with more than one status (an original does so, or one code covers failures of different kinds). */
const TWO_STATUSES: Record<string, string> = {
  'ticket-not-accessible': 'single ticket 401 with the code as message; `/qr/{id}` 403 with the catalogue message',
  woocommerce_rest_cannot_view: 'the refusal 401/403; a missing `options` list 400 (the original uses this code, with 500)',
  woocommerce_rest_cannot_update: 'the refusal 401/403; an `options` write without an object of names and values 400 (the original uses this code, with 500)',
  woocommerce_rest_helper_connect: 'marketplace connect: unreachable 502, not configured 503, no request token 400',
  error_sending_mobile_magic_link: 'mail not configured 503, the mail server refusing 502',
  internal_server_error: 'our own failures 500; a mailing-list sign-up value on which the original stops with a PHP fatal error (its 500) 400',
};

/** Codes of one original that two areas answer with (each area mirrors a part of it); same status in each. */
const SHARED_CODES: Record<string, string> = {
  woocommerce_rest_cannot_view: 'WooCommerce: shop-admin and shop-analytics refuse with it',
  internal_server_error: "WordPress's answer to a fatal error: core's, and the mailing list's for the values that cause one there",
};

describe('error catalogue', () => {
  it('finds the catalogues and their codes', () => {
    expect(new Set(declared.map((d) => d.file))).toEqual(
      new Set([
        'rest/errors.ts', 'rest/schema.ts', 'rest/formats.ts', 'auth/errors.ts',
        // event-import's one error has the original's sentence as its code (no fixed code to declare).
        ...['connector', 'contact-forms', 'core', 'events', 'mailing-list', 'marketplace', 'oembed', 'onboarding', 'seo', 'shop-admin', 'shop-analytics', 'spamfilter', 'tickets'].map(
          (area) => `namespaces/${area}/errors.ts`,
        ),
      ]),
    );
    expect(declared.length).toBeGreaterThan(60);
  });

  it('builds RestErrors only in catalogues (handlers use their factories)', () => {
    const strays = files
      .filter((f) => !isCatalogue(f.path) && !VALIDATION.has(f.path))
      .flatMap((f) => [...f.text.matchAll(/new RestError\(/g)].map(() => f.path));
    // rest/permissions.ts forwards the code a route declares for its refusal (checked below).
    expect(strays.filter((p) => p !== 'rest/permissions.ts')).toEqual([]);
  });

  it('declares each code in one catalogue, with one status', () => {
    const byCode = new Map<string, Declaration[]>();
    for (const d of declared) byCode.set(d.code, [...(byCode.get(d.code) ?? []), d]);
    const problems: string[] = [];
    for (const [code, list] of byCode) {
      const catalogues = new Set(list.map((d) => d.file));
      if (catalogues.size > 1 && !SHARED_CODES[code]) problems.push(`${code}: declared in ${[...catalogues].join(', ')}`);
      const statuses = new Set(list.map((d) => d.status));
      if (statuses.size > 1 && !TWO_STATUSES[code]) problems.push(`${code}: statuses ${[...statuses].join(' / ')}`);
      for (const d of list) if (!/^\d{3}$/.test(d.status) && !/\b[45]\d\d\b|status|^authorizationStatus\(/.test(d.status)) problems.push(`${code}: status ${d.status}`);
    }
    expect(problems).toEqual([]);
  });

  it('uses only declared codes where a route names the code of its refusal', () => {
    const codes = new Set(declared.map((d) => d.code));
    const named = files.flatMap((f) => [...f.text.matchAll(/requireCapability\([^)]*?code: '([\w-]+)'/g)].map((m) => `${f.path}: ${m[1]}`));
    expect(named.filter((n) => !codes.has(n.split(': ')[1]!))).toEqual([]);
  });
});
