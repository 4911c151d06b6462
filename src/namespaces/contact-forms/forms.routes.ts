/**
 * @module namespaces/contact-forms/forms.routes
 * `contact-form/v1` (the original `contact-form-7/v1`): forms (collection and item), the feedback
 * route browsers post submissions to, the validation schema and the refill data.
 */
import type { AppContext } from '../../app-context.js';
import { allowAll } from '../../rest/permissions.js';
import { phpIntval, phpString } from '../../rest/php-query.js';
import { wpStripAllTags } from '../../rest/wp-sanitize.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, RestResponse, defineRoutes, type Permission, type RestRequest } from '../../rest/route.js';
import { configErrors } from './config-validator.js';
import { CF7_MESSAGES, ContactFormErrors } from './errors.js';
import { sanitizeUnitTag, submitFeedback } from './feedback.service.js';
import { scanFormTags } from './form-tags.js';
import { deleteForm, getForm, listForms, saveForm, templateForm, type ContactForm, type ListOrderBy, type ListQuery } from './forms.repo.js';
import { presentForm } from './forms.present.js';
import { refill } from './refill.js';
import { FEEDBACK_PER_MINUTE, SubmissionLimiter } from './rate-limit.js';
import { buildSchema } from './swv.js';
import { siteToday } from './clock.js';
import type { MailProps } from './template.js';

export const CONTACT_FORM_NS = 'contact-form/v1';

/** The original's meta capabilities: read → `edit_posts`, edit/delete → `publish_pages`. Always 403. */
function cf7Can(capability: 'edit_posts' | 'publish_pages', message: string): Permission<AppContext> {
  return (req) => (req.user?.can(capability) ? true : ContactFormErrors.forbidden(message));
}

/** The original's `id` argument of every item route. */
const idArgs = { id: { description: 'Unique identifier for the contact form.', type: 'integer', required: true } } as const;

function intParam(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number.parseInt(String(value), 10);
  // PHP's (int) saturates; the database takes 32-bit limits and offsets.
  return Number.isFinite(n) ? Math.max(-(2 ** 31), Math.min(n, 2 ** 31 - 1)) : 0;
}

/** The original hands its query params to `WP_Query`, whose `orderby` keys are these (case-sensitive). */
const ORDERBY_KEYS: Readonly<Record<string, ListOrderBy>> = {
  ID: 'id', title: 'title', post_title: 'title', date: 'date', post_date: 'date', name: 'slug', post_name: 'slug',
  modified: 'modified', post_modified: 'modified', author: 'author', post_author: 'author', parent: 'parent',
  post_parent: 'parent', menu_order: 'menu_order', type: 'type', post_type: 'type',
};

/** `WP_Query`'s search terms: words and "quoted phrases"; more than nine make one sentence. */
function searchTerms(search: string): string[] {
  const terms = [...search.matchAll(/"[^"]*(?:"|$)|[^\t ",+]+/g)].map((m) => m[0].replace(/^"|"$/g, '').trim()).filter(Boolean);
  return terms.length > 9 ? [search.trim()] : terms;
}

/**
 * `GET /contact-forms`: the original declares no args and passes `per_page`, `offset`, `order`,
 * `orderby` and `search` to `WP_Query` as they come, with its defaults (all forms, by ID, ascending).
 */
async function listHandler(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const p = req.params;
  const q: ListQuery = { order: 'ASC', orderby: ['id'] };
  // Any order but ASC (any case) is DESC.
  if (p.order !== undefined && p.order !== null) q.order = phpString(p.order).toUpperCase() === 'ASC' ? 'ASC' : 'DESC';
  if (p.orderby !== undefined && p.orderby !== null) {
    const keys = phpString(p.orderby).split(' ').map((k) => ORDERBY_KEYS[k]).filter((k) => k !== undefined);
    // Nothing usable: WP_Query falls back to the date.
    q.orderby = keys.length ? keys : ['date'];
  }
  if (p.per_page !== undefined && p.per_page !== null) {
    const perPage = intParam(p.per_page) ?? 0;
    // -1 is every form; 0 is the site's posts_per_page; below -1 counts as its absolute value.
    if (perPage === 0) q.perPage = Math.max(1, phpIntval(await ctx.options.get<unknown>('posts_per_page', 10)));
    else if (perPage < -1) q.perPage = Math.min(-perPage, 2 ** 31 - 1);
    else if (perPage > 0) q.perPage = perPage;
    // WP_Query applies an offset only to a limited page.
    if (q.perPage !== undefined) q.offset = Math.min(Math.abs(intParam(p.offset) ?? 0), 2 ** 31 - 1);
  }
  if (p.search !== undefined && p.search !== null) {
    const terms = searchTerms(phpString(p.search).slice(0, 200));
    if (terms.length) q.search = terms;
  }
  const rows = await listForms(ctx, q);
  return rows.map((r) => ({ id: r.id, hash: r.hash.slice(0, 7), slug: r.slug, title: r.title, locale: r.locale }));
}

/** Drops elements and attributes that run script, for users without `unfiltered_html`. */
function filterHtml(text: string): string {
  return text
    .replace(/<(script|style|iframe|object|embed)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?(script|style|iframe|object|embed)\b[^>]*>/gi, '')
    .replace(/\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/(href|src)\s*=\s*(["']?)\s*javascript:/gi, '$1=$2#');
}

function mailFrom(input: unknown, base: MailProps, forceActive: boolean, filter: (s: string) => string): MailProps {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return base;
  const i = input as Record<string, unknown>;
  const s = (k: keyof MailProps, fallback: string) => (typeof i[k] === 'string' || typeof i[k] === 'number' ? String(i[k]) : fallback);
  const flag = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on';
  const headers = s('additional_headers', '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');
  return {
    active: forceActive ? true : flag(i.active),
    subject: s('subject', '').trim(),
    sender: s('sender', '').trim(),
    recipient: s('recipient', '').trim(),
    body: filter(s('body', '').trim()),
    additional_headers: headers,
    attachments: s('attachments', '').trim(),
    use_html: flag(i.use_html),
    exclude_blank: flag(i.exclude_blank),
  };
}

/** The original's `set_title`: tags stripped, runs of whitespace made one space, `Untitled` when nothing is left. */
function formTitle(value: unknown): string {
  const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value === false ? '' : value) : '';
  return wpStripAllTags(text).replace(/[\r\n\t ]+/g, ' ').trim().slice(0, 1000) || 'Untitled';
}

/**
 * The original's `set_locale`: a valid locale code, else `en_US`. Codes longer than the stored
 * column (20) count as invalid here, where the original would store them.
 */
function formLocale(value: string): string {
  const locale = value.trim();
  return locale.length <= 20 && /^[a-z]{2,3}(?:_[a-zA-Z_]{2,})?$/.test(locale) ? locale : 'en_US';
}

/** `wpcf7_save_contact_form`: supplied properties over `form`; saved only when `context` is `save`. */
async function applyAndMaybeSave(req: RestRequest, ctx: AppContext, form: ContactForm): Promise<Record<string, unknown>> {
  const p = req.params;
  const filter = req.user?.can('unfiltered_html') ? (s: string) => s : filterHtml;
  const next: ContactForm = { ...form, messages: { ...form.messages } };
  if (p.title !== undefined && p.title !== null) next.title = formTitle(p.title);
  if (typeof p.locale === 'string') next.locale = formLocale(p.locale);
  if (typeof p.form === 'string') next.form = filter(p.form.trim());
  if (p.mail !== undefined) next.mail = mailFrom(p.mail, next.mail, true, filter);
  if (p.mail_2 !== undefined) next.mail_2 = mailFrom(p.mail_2, next.mail_2, false, filter);
  if (p.messages && typeof p.messages === 'object' && !Array.isArray(p.messages)) {
    for (const [k, v] of Object.entries(p.messages as Record<string, unknown>)) {
      // Stored as given (trimmed): the feedback route strips tags when it shows a message.
      if (k in next.messages && (typeof v === 'string' || typeof v === 'number')) next.messages[k] = String(v).trim();
    }
  }
  if (typeof p.additional_settings === 'string') {
    next.additional_settings = p.additional_settings.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
  }
  const saved = p.context === 'save' ? await saveForm(ctx, next, req.user?.id ?? 0) : next;
  // An unsaved new form has no id and no slug yet: the original shows both as null.
  const unsaved = saved.id === 0 ? { id: null, slug: null } : {};
  return { ...presentForm(saved), ...unsaved, config_errors: configErrors(saved, ctx.urls.home) };
}

async function createHandler(req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (intParam(req.params.id)) throw ContactFormErrors.exists();
  return applyAndMaybeSave(req, ctx, templateForm(ctx));
}

async function formOr404(req: RestRequest, ctx: AppContext): Promise<ContactForm> {
  const form = await getForm(ctx, Number(req.urlParams.id));
  if (!form) throw ContactFormErrors.notFound();
  return form;
}

const limiters = new WeakMap<AppContext, SubmissionLimiter>();

async function feedbackHandler(req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (!(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
    throw ContactFormErrors.unsupportedMediaType();
  }
  let limiter = limiters.get(ctx);
  if (!limiter) limiters.set(ctx, (limiter = new SubmissionLimiter(FEEDBACK_PER_MINUTE, 60_000)));
  const wait = limiter.hit(req.ip, Date.now());
  if (wait > 0) return new RestResponse(ContactFormErrors.tooManyRequests().toJSON(), 429, { 'Retry-After': String(wait) });
  const form = await formOr404(req, ctx);
  const unitTag = sanitizeUnitTag(req.params._wpcf7_unit_tag);
  if (unitTag === '') throw ContactFormErrors.noUnitTag();
  const r = await submitFeedback(ctx, form, req, unitTag);
  const into = `#${unitTag}`;
  const invalidFields = r.invalid.map((f) => {
    const field = f.field.replace(/\./g, '_');
    return { field, message: f.message, idref: f.idref, error_id: `${unitTag}-ve-${field}` };
  });
  // Key order of the original: the submission's result, then `into`, then `invalid_fields`.
  const body: Record<string, unknown> = { contact_form_id: form.id, status: r.status, message: r.message };
  if (r.status === 'validation_failed') body.invalid_fields = invalidFields;
  if (r.postedDataHash !== undefined) body.posted_data_hash = r.postedDataHash;
  if (r.demoMode && r.status !== 'error') body.demo_mode = true;
  body.into = into;
  if (!('invalid_fields' in body)) body.invalid_fields = [];
  // A quiz form's answer brings new questions, whatever the outcome.
  const refilled = await refill(ctx, form);
  if (!Array.isArray(refilled)) Object.assign(body, refilled);
  return body;
}

export const contactFormRoutes = defineRoutes<AppContext>(CONTACT_FORM_NS, [
  {
    path: '/contact-forms',
    endpoints: [
      { methods: READABLE, permission: cf7Can('edit_posts', CF7_MESSAGES.cannotRead), handler: listHandler },
      { methods: CREATABLE, permission: cf7Can('publish_pages', CF7_MESSAGES.cannotCreate), handler: createHandler },
    ],
  },
  {
    path: '/contact-forms/{id}',
    endpoints: [
      {
        methods: READABLE,
        args: idArgs,
        permission: cf7Can('publish_pages', CF7_MESSAGES.cannotAccess),
        handler: async (req, ctx) => presentForm(await formOr404(req, ctx)),
      },
      {
        methods: EDITABLE,
        args: idArgs,
        permission: cf7Can('publish_pages', CF7_MESSAGES.cannotAccess),
        handler: async (req, ctx) => applyAndMaybeSave(req, ctx, await formOr404(req, ctx)),
      },
      {
        methods: DELETABLE,
        args: idArgs,
        permission: cf7Can('publish_pages', CF7_MESSAGES.cannotAccess),
        handler: async (req, ctx) => {
          const form = await formOr404(req, ctx);
          if (!(await deleteForm(ctx, form.id))) throw ContactFormErrors.cannotDelete();
          return { deleted: true };
        },
      },
    ],
  },
  {
    path: '/contact-forms/{id}/feedback',
    endpoints: [{ methods: CREATABLE, args: idArgs, permission: allowAll, handler: feedbackHandler, acceptsUploads: true }],
  },
  {
    path: '/contact-forms/{id}/feedback/schema',
    endpoints: [
      {
        methods: READABLE,
        args: idArgs,
        permission: allowAll,
        handler: async (req, ctx) => {
          const form = await formOr404(req, ctx);
          // Messages are shown as plain text, as everywhere the original shows them.
          const messages = Object.fromEntries(Object.entries(form.messages).map(([k, v]) => [k, wpStripAllTags(v)]));
          return buildSchema(scanFormTags(form.form), messages, form.locale, await siteToday(ctx));
        },
      },
    ],
  },
  {
    path: '/contact-forms/{id}/refill',
    endpoints: [{ methods: READABLE, args: idArgs, permission: allowAll, handler: async (req, ctx) => refill(ctx, await formOr404(req, ctx)) }],
  },
]);

