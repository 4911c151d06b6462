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

/** `limit:2mb` / `limit:500kb` / `limit:1024` in bytes. */
function parseLimit(value: string | undefined): number {
  const m = /^(\d+)(kb|mb)?$/i.exec(value ?? '');
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

/** The rules of a form's tags, in the original's order (text-like, textarea, number, date, choices, files). */
export function buildSchema(tags: readonly FormTag[], messages: Readonly<Record<string, string>>, locale: string): SwvSchema {
  const rules: SwvRule[] = [];
  const msg = (key: string) => messages[key] ?? '';
  const num = (tag: FormTag, name: string) => tagOption(tag, name, /^(-?\d+(?:\.\d+)?)$/);
  for (const tag of tags.filter((t) => TEXT_LIKE.has(t.basetype))) {
    if (isRequired(tag)) rules.push({ rule: 'required', field: tag.name, error: msg('invalid_required') });
    if (tag.basetype === 'email') rules.push({ rule: 'email', field: tag.name, error: msg('invalid_email') });
    if (tag.basetype === 'url') rules.push({ rule: 'url', field: tag.name, error: msg('invalid_url') });
    if (tag.basetype === 'tel') rules.push({ rule: 'tel', field: tag.name, error: msg('invalid_tel') });
    const min = tagOption(tag, 'minlength', /^(\d+)$/);
    if (min && Number(min) > 0) rules.push({ rule: 'minlength', field: tag.name, threshold: Number(min), error: msg('invalid_too_short') });
    rules.push({ rule: 'maxlength', field: tag.name, threshold: Number(tagOption(tag, 'maxlength', /^(\d+)$/) ?? 400), error: msg('invalid_too_long') });
  }
  for (const tag of tags.filter((t) => t.basetype === 'textarea')) {
    if (isRequired(tag)) rules.push({ rule: 'required', field: tag.name, error: msg('invalid_required') });
    const min = tagOption(tag, 'minlength', /^(\d+)$/);
    if (min && Number(min) > 0) rules.push({ rule: 'minlength', field: tag.name, threshold: Number(min), error: msg('invalid_too_short') });
    rules.push({ rule: 'maxlength', field: tag.name, threshold: Number(tagOption(tag, 'maxlength', /^(\d+)$/) ?? 2000), error: msg('invalid_too_long') });
  }
  for (const tag of tags.filter((t) => t.basetype === 'number' || t.basetype === 'range')) {
    if (isRequired(tag)) rules.push({ rule: 'required', field: tag.name, error: msg('invalid_required') });
    rules.push({ rule: 'number', field: tag.name, error: msg('invalid_number') });
    const min = num(tag, 'min');
    const max = num(tag, 'max');
    if (min !== undefined) rules.push({ rule: 'minnumber', field: tag.name, threshold: min, error: msg('number_too_small') });
    if (max !== undefined) rules.push({ rule: 'maxnumber', field: tag.name, threshold: max, error: msg('number_too_large') });
  }
  for (const tag of tags.filter((t) => t.basetype === 'date')) {
    if (isRequired(tag)) rules.push({ rule: 'required', field: tag.name, error: msg('invalid_required') });
    rules.push({ rule: 'date', field: tag.name, error: msg('invalid_date') });
    const min = tagOption(tag, 'min', /^(\d{4}-\d{2}-\d{2})$/);
    const max = tagOption(tag, 'max', /^(\d{4}-\d{2}-\d{2})$/);
    if (min) rules.push({ rule: 'mindate', field: tag.name, threshold: min, error: msg('date_too_early') });
    if (max) rules.push({ rule: 'maxdate', field: tag.name, threshold: max, error: msg('date_too_late') });
  }
  const choices = tags.filter((t) => t.basetype === 'checkbox' || t.basetype === 'radio' || t.basetype === 'select');
  for (const tag of choices) {
    if (isRequired(tag) || tag.type === 'radio') rules.push({ rule: 'required', field: tag.name, error: msg('invalid_required') });
    if (tag.basetype !== 'select' && (tag.type === 'radio' || hasOption(tag, 'exclusive'))) {
      rules.push({ rule: 'maxitems', field: tag.name, threshold: 1, error: 'Too many items are selected.' });
    }
  }
  for (const tag of choices) {
    if (hasOption(tag, 'free_text')) continue;
    const accept = [...new Set(tag.values)].filter((v) => v !== '');
    if (tag.basetype === 'select' && hasOption(tag, 'include_blank')) accept.push('');
    rules.push({ rule: 'enum', field: tag.name, accept, error: 'Undefined value was submitted through this field.' });
  }
  for (const tag of tags.filter((t) => t.basetype === 'file')) {
    if (isRequired(tag)) rules.push({ rule: 'requiredfile', field: tag.name, error: msg('invalid_required') });
    rules.push({ rule: 'file', field: tag.name, accept: acceptTypes(tag), error: msg('upload_file_type_invalid') });
    rules.push({ rule: 'maxfilesize', field: tag.name, threshold: parseLimit(tagOption(tag, 'limit')), error: msg('upload_file_too_large') });
  }
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
