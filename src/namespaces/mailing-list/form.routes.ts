/**
 * @module namespaces/mailing-list/form.routes
 * `mailinglist/v1` (the original `mc4wp/v1`): `POST /form`, where sign-up forms post (form-encoded
 * or multipart; AMP forms too). Validation in the original's order, then the sign-up; `true` on
 * success, else 400 with the first error key (a string, or the list service's numeric code) and the
 * form's message for it. A form with a redirect URL sends a successful sign-up there (302) unless
 * the client asked for JSON, as the original's listener does before the REST answer.
 */
import type { AppContext } from '../../app-context.js';
import { phpTrim, phpTruthy } from '../../rest/php-builtins.js';
import { allowAll } from '../../rest/permissions.js';
import { RestResponse, defineRoutes, type RestRequest } from '../../rest/route.js';
import { wpStripAllTags } from '../../rest/wp-sanitize.js';
import { MailingListErrors } from './errors.js';
import { SignupFatalError } from './field-formatter.js';
import { findSignupForm, type SignupForm } from './forms.repo.js';
import { withNameData } from './list-data-mapper.js';
import { redirectUrl } from './redirect-url.js';
import { subscribe } from './subscribe.service.js';

export const MAILINGLIST_NS = 'mailinglist/v1';

const BOT_AGENT = /bot|crawl|spider|seo|lighthouse|facebookexternalhit|preview/i;

/**
 * Lists one submission may name beyond the form's own. The original passes every posted list to the
 * service, so one unauthenticated request could fan out into thousands of list-service calls under
 * the site's key, or thousands of confirmation e-mails from the local list; a form offers a few.
 */
export const MAX_POSTED_LISTS = 20;

// `mc4wp_is_email`: a string of 1–320 bytes that PHP's FILTER_VALIDATE_EMAIL accepts (not
// WordPress's is_email). Dot-atom or quoted local part of at most 64 characters, at most 254 in
// all; a host name of two or more labels (each at most 63, hyphens only inside, the last starting
// with a letter or `xn--`) or an IPv4 literal. ASCII only.
const ATOM = "[\\x21\\x23-\\x27\\x2A\\x2B\\x2D\\x2F-\\x39\\x3D\\x3F\\x5E-\\x7E]+";
const QUOTED = '\\x22(?:[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\x21\\x23-\\x5B\\x5D-\\x7F]|\\x5C[\\x00-\\x7F])*\\x22';
const WORD = `(?:${ATOM}|${QUOTED})`;
const LABEL = '(?:xn--)?[a-z0-9]+(?:-+[a-z0-9]+)*';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const EMAIL_SHAPE = new RegExp(`^${WORD}(?:\\.${WORD})*@(?:(?:${LABEL}\\.)+(?:[a-z][a-z0-9]*|xn--[a-z0-9]+)(?:-+[a-z0-9]+)*|\\[${OCTET}(?:\\.${OCTET}){3}\\])$`, 'i');

export function isEmail(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || Buffer.byteLength(value) > 320 || value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at > 64) return false;
  const domain = value.slice(at + 1);
  if (!domain.startsWith('[') && domain.split('.').some((label) => label.length > 63)) return false;
  return EMAIL_SHAPE.test(value);
}

/** `absint`: a non-numeric id is 0. */
function absint(value: unknown): number {
  const n = Number.parseInt(typeof value === 'string' || typeof value === 'number' ? String(value) : '', 10);
  return Number.isFinite(n) ? Math.abs(n) : 0;
}

/** `html_entity_decode(…, ENT_NOQUOTES)` for the references a browser form sends: `&amp;`, `&lt;`, `&gt;`, `&nbsp;`, numeric (quotes stay encoded). */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|nbsp|#\d+|#x[0-9a-f]+);/gi, (whole, ref: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0' };
    if (ref[0] !== '#') return named[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && code !== 34 && code !== 39 && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** At most `max` UTF-8 bytes (PHP `substr`), without splitting a character. */
function byteCap(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    bytes += Buffer.byteLength(ch);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/** `mc4wp_sanitize_deep`, applied to the whole POST body before anything reads it: every string has its tags stripped, is trimmed, has `&amp;` and the like decoded and is cut to 1024 bytes. */
export function sanitizeDeep(value: unknown): unknown {
  if (typeof value === 'string') return byteCap(decodeEntities(phpTrim(wpStripAllTags(value))), 1024);
  if (Array.isArray(value)) return value.map(sanitizeDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sanitizeDeep(v)]));
  return value;
}

/** PHP `array_filter` without a callback: falsy entries ('', '0', empty arrays …) dropped, keys kept. */
function arrayFilter(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter(phpTruthy);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => phpTruthy(v)));
  return value;
}

/** User fields (`parse_request_data`): names empty, longer than 191 bytes or starting with `_` ignored, the rest upper-cased (ASCII, as `strtoupper`); empty entries of list values dropped. */
function userData(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === '' || k.startsWith('_') || Buffer.byteLength(k) > 191) continue;
    out[k.replace(/[a-z]+/g, (c) => c.toUpperCase())] = arrayFilter(v);
  }
  return out;
}

/**
 * The lists as `set_config` leaves them: a posted `_mc4wp_lists` (even empty) replaces the form's;
 * a list value loses its empty entries, a string is split on commas and trimmed (`'a,,b'` keeps an
 * empty entry, and `''` is `['']`). Validation sees these; the sign-up, like `get_lists`, only the
 * non-empty ones.
 */
function chosenLists(form: SignupForm, body: Record<string, unknown>): string[] {
  const raw = body._mc4wp_lists;
  if (raw === undefined) return form.lists;
  if (raw !== null && typeof raw === 'object') return Object.values(arrayFilter(raw) as object).map(String);
  return String(raw).split(',').map((s) => phpTrim(s));
}

/** `mc4wp_array_get`: the key itself, else a dot path into nested values (`ADDRESS.addr1`). */
function arrayGet(data: Record<string, unknown>, key: string): unknown {
  if (data[key] !== undefined && data[key] !== null) return data[key];
  let at: unknown = data;
  for (const segment of key.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, segment)) return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return at;
}

/** The errors of a submission in the original's order (`MC4WP_Form::validate`). */
function validate(form: SignupForm, lists: string[], agent: string, body: Record<string, unknown>, data: Record<string, unknown>, now: Date): string[] {
  const errors: string[] = [];
  if (lists.length === 0) errors.push('no_lists_selected');
  const nowSec = Math.floor(now.getTime() / 1000);
  const ts = typeof body._mc4wp_timestamp === 'string' && body._mc4wp_timestamp !== '' ? Number(body._mc4wp_timestamp) : Number.NaN; // PHP: an array compares greater than any number
  if (agent === '' || agent === '0' || BOT_AGENT.test(agent)) errors.push('spam.user_agent'); // PHP empty(): '0' too
  else if (typeof body._mc4wp_timestamp !== 'string' || !Number.isFinite(ts) || ts < nowSec - 86400 * 90 || ts > nowSec - 2) errors.push('spam.timestamp');
  else if (body._mc4wp_honeypot !== '') errors.push('spam.honeypot');
  if (errors.length === 0) {
    if (!isEmail(data.EMAIL)) errors.push('invalid_email');
    for (const field of form.requiredFields) {
      const v = arrayGet(data, field);
      if (v === '' || (Array.isArray(v) && v.length === 0) || (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)) {
        errors.push('required_field_missing');
        break;
      }
    }
  }
  return errors;
}

/** The form's text for `key`: the part before a dot selects it; unknown keys get the generic error. */
function messageFor(form: SignupForm, key: string | number): string {
  const k = String(key).split('.')[0]!;
  return form.messages[k] ?? form.messages.error ?? '';
}

function failure(form: SignupForm, key: string | number): RestResponse {
  return new RestResponse({ code: key, message: messageFor(form, key), data: { status: 400 } }, 400);
}

async function handleForm(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const body = sanitizeDeep(req.body) as Record<string, unknown>;
  // A JSON body leaves no POST fields: the original finds no submitted form. Its listener skips an
  // `empty()` id ('' or '0'); any other value goes through (int), so `abc` is form 0.
  const id = body._mc4wp_form_id;
  const empty = id === undefined || id === '' || id === '0' || (Array.isArray(id) && id.length === 0);
  const form = empty ? undefined : await findSignupForm(ctx, absint(id));
  if (!form) throw MailingListErrors.formNotFound();
  const data = userData(body);
  const lists = chosenLists(form, body);
  const errors = validate(form, lists, req.headers['user-agent'] ?? '', body, data, ctx.now());
  if (errors.length > 0) return failure(form, errors[0]!);
  if (body._mc4wp_action === 'unsubscribe') return failure(form, 'unauthorized');
  const emailType = body._mc4wp_email_type === 'text' ? 'text' : 'html';
  // A list named twice is signed up to once (the original's service client keys its calls by list).
  const targets = [...new Set(lists.filter((l) => l !== '' && l !== '0'))];
  if (targets.length > MAX_POSTED_LISTS && targets.some((l) => !form.lists.includes(l))) {
    ctx.log.info({ form: form.id, lists: targets.length }, 'mailing list sign-up refused: too many lists posted');
    return failure(form, 'error');
  }
  // No list left to sign up to: the original makes no call and reports the client's empty error code.
  if (targets.length === 0) return failure(form, '');
  let error: string | number | undefined;
  try {
    const fields = withNameData(data);
    const acceptLanguage = req.headers['accept-language'];
    error = await subscribe(ctx, form, targets, { email: String(data.EMAIL), fields, ip: req.ip, emailType, ...(acceptLanguage ? { acceptLanguage } : {}) });
  } catch (e) {
    if (!(e instanceof SignupFatalError)) throw e;
    ctx.log.info({ form: form.id }, `mailing list sign-up refused: ${e.message}`);
    throw MailingListErrors.fatal();
  }
  if (error !== undefined) return failure(form, error);
  // `request_wants_json`: an Accept header naming application/json.
  if (!(req.headers.accept ?? '').includes('application/json')) {
    const location = await redirectUrl(ctx, form, req);
    if (location !== '') return new RestResponse(null, 302, { Location: location, 'X-Redirect-By': 'WordPress' });
  }
  return true;
}

export const mailinglistRoutes = defineRoutes<AppContext>(MAILINGLIST_NS, [
  { path: '/form', endpoints: [{ methods: ['POST'], permission: allowAll, handler: handleForm }] },
]);
