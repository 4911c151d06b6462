/**
 * @module namespaces/contact-forms/swv
 * The form's validation schema (the original's "SWV": a list of rules built from the form tags) and
 * the validator that applies it to a submission. One error per field: the first rule it breaks.
 */
import { hasOption, isRequired, tagOption, type FormTag } from './form-tags.js';

export const SWV_VERSION = 'Contact Form 7 SWV Schema 2024-10';

export interface SwvRule {
  rule: string;
  field: string;
  error: string;
  threshold?: number | string;
  accept?: string[];
}

export interface SwvSchema {
  version: string;
  locale: string;
  rules: SwvRule[];
}

/** Default upload limit (1 MB), as the original's `limit:` default. */
export const DEFAULT_FILE_LIMIT = 1_048_576;

const TEXT_LIKE = new Set(['text', 'email', 'url', 'tel']);

/** The original's `signed_num` option pattern: `5`, `-5`, `.5`, `1.5`. */
const SIGNED_NUM = /^(-?(?:\d+|\d*\.\d+))$/;

/** `limit:2mb` / `limit:500kb` / `limit:1024` in bytes. */
function parseLimit(value: string | undefined): number {
  const m = /^([1-9]\d*)(kb|mb)?$/i.exec(value ?? '');
  if (!m) return DEFAULT_FILE_LIMIT;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  return unit === 'mb' ? n * 1024 * 1024 : unit === 'kb' ? n * 1024 : n;
}

/** `filetypes:jpg|pdf` → `['.jpg', '.pdf']`; none → audio, video and images. */
function acceptTypes(tag: FormTag): string[] {
  const raw = tagOption(tag, 'filetypes');
  if (!raw) return ['audio/*', 'video/*', 'image/*'];
  return [...new Set(raw.toLowerCase().split(/[\s|,]+/).filter(Boolean))].map((t) => (t.includes('/') ? t : `.${t.replace(/^\.+|\.+$/g, '')}`));
}

/** `maxlength:N`, else the `size/N` form; 0 or absent gives `fallback`, as the original's `get_maxlength_option`. */
function maxLength(tag: FormTag, fallback: number): number {
  const own = Number(tagOption(tag, 'maxlength', /^(\d+)$/) ?? 0);
  if (own > 0) return own;
  for (const o of tag.options) {
    const m = /^(?:\d*x?\d*)?\/(\d+)$/.exec(o);
    if (m && Number(m[1]) > 0) return Number(m[1]);
  }
  return fallback;
}

/** Values of the choice tags of `basetypes`, merged per field name in order of first appearance. */
function choicesByField(tags: readonly FormTag[], basetypes: readonly string[], values: (tag: FormTag) => string[]): Map<string, string[] | 'free_text'> {
  const byField = new Map<string, string[] | 'free_text'>();
  for (const tag of tags.filter((t) => basetypes.includes(t.basetype))) {
    if (hasOption(tag, 'free_text')) byField.set(tag.name, 'free_text');
    const sofar = byField.get(tag.name) ?? [];
    if (sofar !== 'free_text') byField.set(tag.name, [...sofar, ...values(tag)]);
  }
  return byField;
}

const RELATIVE_DAYS: Readonly<Record<string, number>> = { today: 0, tomorrow: 1, yesterday: -1 };
const RELATIVE = /^(today|tomorrow|yesterday) *(?:([+-]) *(\d{1,6}) *(day|week|fortnight|month|year)?s?)?$/i;

/**
 * A date option of a date tag (`min:2030-01-31`, `min:today`, `max:today+2weeks`, `max:today_+_1_month`),
 * as the original reads it: a valid `Y-m-d` as it is, or a day relative to `today` (the site's local
 * date) moved by days (the default unit), weeks, fortnights, months or years, `_` read as a space;
 * months and years overflow as PHP's date arithmetic does (January 31 + 1 month is March 3). Anything
 * else, or a date outside the years 0–9999, is no bound.
 */
export function dateOption(tag: FormTag, name: string, today: string): string | undefined {
  const value = tagOption(tag, name);
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return isDate(value) ? value : undefined;
  const m = RELATIVE.exec(value.replace(/_+/g, ' ').trim());
  if (!m) return undefined;
  const n = (m[2] === '-' ? -1 : 1) * Number(m[3] ?? 0);
  const unit = (m[4] ?? 'day').toLowerCase();
  const [y, mo, d] = today.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y + (unit === 'year' ? n : 0), mo - 1 + (unit === 'month' ? n : 0), d + RELATIVE_DAYS[m[1]!.toLowerCase()]! + n * (unit === 'week' ? 7 : unit === 'fortnight' ? 14 : unit === 'day' ? 1 : 0));
  const out = Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(out) ? out : undefined;
}

/**
 * The rules of a form's tags in the original's order: each tag module adds its rules in turn, the
 * modules in load order (checkbox/radio, date, file, number/range, select, text-like, textarea),
 * then the `enum` rules of checkboxes/radios and of selects. That order decides which error a field
 * reports and the order of `invalid_fields`.
 */
export function buildSchema(tags: readonly FormTag[], messages: Readonly<Record<string, string>>, locale: string, today: string): SwvSchema {
  const rules: SwvRule[] = [];
  const msg = (key: string) => messages[key] ?? '';
  const of = (...basetypes: string[]) => tags.filter((t) => basetypes.includes(t.basetype));
  const required = (tag: FormTag) => rules.push({ rule: 'required', field: tag.name, error: msg('invalid_required') });
  const minLength = (tag: FormTag) => {
    const min = Number(tagOption(tag, 'minlength', /^(\d+)$/) ?? 0);
    if (min > 0) rules.push({ rule: 'minlength', field: tag.name, threshold: min, error: msg('invalid_too_short') });
  };

  for (const tag of of('checkbox', 'radio')) {
    if (isRequired(tag) || tag.type === 'radio') required(tag);
    if (tag.type === 'radio' || hasOption(tag, 'exclusive')) {
      rules.push({ rule: 'maxitems', field: tag.name, threshold: 1, error: 'Too many items are selected.' });
    }
  }
  for (const tag of of('date')) {
    if (isRequired(tag)) required(tag);
    rules.push({ rule: 'date', field: tag.name, error: msg('invalid_date') });
    const min = dateOption(tag, 'min', today);
    const max = dateOption(tag, 'max', today);
    if (min) rules.push({ rule: 'mindate', field: tag.name, threshold: min, error: msg('date_too_early') });
    if (max) rules.push({ rule: 'maxdate', field: tag.name, threshold: max, error: msg('date_too_late') });
  }
  for (const tag of of('file')) {
    if (isRequired(tag)) rules.push({ rule: 'requiredfile', field: tag.name, error: msg('invalid_required') });
    rules.push({ rule: 'file', field: tag.name, accept: acceptTypes(tag), error: msg('upload_file_type_invalid') });
    rules.push({ rule: 'maxfilesize', field: tag.name, threshold: parseLimit(tagOption(tag, 'limit')), error: msg('upload_file_too_large') });
  }
  for (const tag of of('number', 'range')) {
    if (isRequired(tag)) required(tag);
    rules.push({ rule: 'number', field: tag.name, error: msg('invalid_number') });
    // A slider always has bounds: 0 to 100 unless the tag sets them.
    const slider = tag.basetype === 'range';
    const min = tagOption(tag, 'min', SIGNED_NUM) ?? (slider ? '0' : undefined);
    const max = tagOption(tag, 'max', SIGNED_NUM) ?? (slider ? '100' : undefined);
    if (min !== undefined) rules.push({ rule: 'minnumber', field: tag.name, threshold: min, error: msg('number_too_small') });
    if (max !== undefined) rules.push({ rule: 'maxnumber', field: tag.name, threshold: max, error: msg('number_too_large') });
  }
  for (const tag of of('select')) if (isRequired(tag)) required(tag);
  for (const tag of tags.filter((t) => TEXT_LIKE.has(t.basetype))) {
    if (isRequired(tag)) required(tag);
    if (tag.basetype === 'email') rules.push({ rule: 'email', field: tag.name, error: msg('invalid_email') });
    if (tag.basetype === 'url') rules.push({ rule: 'url', field: tag.name, error: msg('invalid_url') });
    if (tag.basetype === 'tel') rules.push({ rule: 'tel', field: tag.name, error: msg('invalid_tel') });
    minLength(tag);
    rules.push({ rule: 'maxlength', field: tag.name, threshold: maxLength(tag, 400), error: msg('invalid_too_long') });
  }
  for (const tag of of('textarea')) {
    if (isRequired(tag)) required(tag);
    minLength(tag);
    rules.push({ rule: 'maxlength', field: tag.name, threshold: maxLength(tag, 2000), error: msg('invalid_too_long') });
  }

  // An empty value is never checked against `accept`, so the blank choice is not listed.
  const enumRules = (byField: Map<string, string[] | 'free_text'>) => {
    for (const [field, values] of byField) {
      if (values === 'free_text') continue;
      const accept = [...new Set(values)].filter((v) => v !== '');
      rules.push({ rule: 'enum', field, accept, error: 'Undefined value was submitted through this field.' });
    }
  };
  enumRules(choicesByField(tags, ['checkbox', 'radio'], (t) => t.values));
  enumRules(choicesByField(tags, ['select'], (t) => (hasOption(t, 'first_as_label') ? t.values.slice(1) : t.values)));
  return { version: SWV_VERSION, locale, rules };
}

/** What the validator sees of a submission: text values (string or list) and files by field. */
export interface SubmittedData {
  values: Record<string, string | string[] | undefined>;
  files: Record<string, { filename: string; mimetype: string; size: number } | undefined>;
}

const EMAIL_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
const TEL_RE = /^[+]?(?:\([0-9]+\)|[0-9]+)(?:[/ -]*(?:\([0-9]+\)|[0-9]+))*$/;
const NUMBER_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function isUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return /^(https?|ftps?|mailto|tel|news|irc|gopher|nntp|feed|telnet|mms|rtsp|sms|svn|webcal|urn):$/.test(u.protocol);
  } catch {
    return false;
  }
}

function isDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function fileMatches(file: { filename: string; mimetype: string }, accept: readonly string[]): boolean {
  const name = file.filename.toLowerCase();
  const mime = file.mimetype.toLowerCase();
  return accept.some((a) => (a.startsWith('.') ? name.endsWith(a) : a.endsWith('/*') ? mime.startsWith(a.slice(0, -1)) : mime === a));
}

/** Breaks of `rule` by the submitted value, or false. */
function breaks(rule: SwvRule, data: SubmittedData): boolean {
  const raw = data.values[rule.field];
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) => String(v));
  const filled = list.filter((v) => v.trim() !== '');
  const t = rule.threshold;
  switch (rule.rule) {
    case 'required':
      return filled.length === 0;
    case 'requiredfile':
      return !data.files[rule.field];
    case 'email':
      return filled.some((v) => v.length > 254 || !EMAIL_RE.test(v.trim()));
    case 'url':
      return filled.some((v) => !isUrl(v.trim()));
    case 'tel':
      return filled.some((v) => !TEL_RE.test(v.trim()));
    case 'number':
      return filled.some((v) => !NUMBER_RE.test(v.trim()));
    case 'date':
      return filled.some((v) => !isDate(v.trim()));
    case 'minlength':
      return filled.length > 0 && list.join('').length < Number(t);
    case 'maxlength':
      return list.join('').length > Number(t);
    case 'minnumber':
      return filled.some((v) => NUMBER_RE.test(v.trim()) && Number(v) < Number(t));
    case 'maxnumber':
      return filled.some((v) => NUMBER_RE.test(v.trim()) && Number(v) > Number(t));
    case 'mindate':
      return filled.some((v) => isDate(v.trim()) && v.trim() < String(t));
    case 'maxdate':
      return filled.some((v) => isDate(v.trim()) && v.trim() > String(t));
    case 'maxitems':
      return filled.length > Number(t);
    case 'enum':
      return filled.some((v) => !(rule.accept ?? []).includes(v));
    case 'file': {
      const f = data.files[rule.field];
      return f !== undefined && !fileMatches(f, rule.accept ?? []);
    }
    case 'maxfilesize': {
      const f = data.files[rule.field];
      return f !== undefined && f.size > Number(t);
    }
    default:
      return false;
  }
}

/** Field → error message of the first rule each field breaks. */
export function validate(schema: SwvSchema, data: SubmittedData): Map<string, string> {
  const invalid = new Map<string, string>();
  for (const rule of schema.rules) {
    if (invalid.has(rule.field)) continue;
    if (breaks(rule, data)) invalid.set(rule.field, rule.error);
  }
  return invalid;
}
