/**
 * @module namespaces/contact-forms/forms.repo
 * Contact forms: a post of type `wpcf7_contact_form` (title, slug, status) and its properties in
 * `contact_forms` (the original's `_form`, `_mail`, `_mail_2`, `_messages`, `_additional_settings`,
 * `_locale` and `_hash` post meta).
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { isPostId, postDatePair, siteTimeZone, uniquePostSlug } from '../../content/posts.js';
import { ilike, likeEscape } from '../../storage/dialect.js';
import { DEFAULT_FORM, DEFAULT_MESSAGES, defaultMail, defaultMail2, type MailProps } from './template.js';

export const FORM_POST_TYPE = 'wpcf7_contact_form';

export interface ContactForm {
  /** 0 for a form not saved yet. */
  id: number;
  slug: string;
  title: string;
  status: string;
  locale: string;
  hash: string;
  form: string;
  mail: MailProps;
  mail_2: MailProps;
  messages: Record<string, string>;
  additional_settings: string;
}

/** A new, unsaved form from the default template. */
export function templateForm(ctx: AppContext, locale = 'en_US'): ContactForm {
  return {
    id: 0,
    slug: '',
    title: 'Untitled',
    status: 'publish',
    locale,
    hash: '',
    form: DEFAULT_FORM,
    mail: defaultMail(ctx.urls.home),
    mail_2: defaultMail2(ctx.urls.home),
    messages: { ...DEFAULT_MESSAGES },
    additional_settings: '',
  };
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export async function getForm(ctx: AppContext, id: number): Promise<ContactForm | undefined> {
  if (!isPostId(id)) return undefined;
  const row = await ctx.db
    .selectFrom('posts')
    .innerJoin('contact_forms', 'contact_forms.post_id', 'posts.id')
    .selectAll('contact_forms')
    .select(['posts.id', 'posts.slug', 'posts.title', 'posts.status'])
    .where('posts.id', '=', id)
    .where('posts.type', '=', FORM_POST_TYPE)
    .where('posts.status', '!=', 'trash')
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    status: row.status,
    locale: row.locale,
    hash: row.hash,
    form: row.form,
    mail: parseJson(row.mail, defaultMail(ctx.urls.home)),
    mail_2: parseJson(row.mail_2, defaultMail2(ctx.urls.home)),
    messages: parseJson(row.messages, { ...DEFAULT_MESSAGES }),
    additional_settings: row.additional_settings,
  };
}

export type ListOrderBy = 'id' | 'title' | 'date' | 'slug' | 'modified' | 'author' | 'parent' | 'menu_order' | 'type';

const ORDER_COLUMNS = {
  id: 'posts.id', title: 'posts.title', date: 'posts.date_gmt', slug: 'posts.slug', modified: 'posts.modified_gmt',
  author: 'posts.author', parent: 'posts.parent', menu_order: 'posts.menu_order', type: 'posts.type',
} as const;

export interface ListQuery {
  /** Page size; every form when absent. */
  perPage?: number;
  offset?: number;
  order?: 'ASC' | 'DESC';
  orderby?: readonly ListOrderBy[];
  /** Every term must appear in the title or the form text. */
  search?: readonly string[];
}

export async function listForms(ctx: AppContext, q: ListQuery): Promise<{ id: number; hash: string; slug: string; title: string; locale: string }[]> {
  let query = ctx.db
    .selectFrom('posts')
    .innerJoin('contact_forms', 'contact_forms.post_id', 'posts.id')
    .select(['posts.id', 'posts.slug', 'posts.title', 'contact_forms.hash', 'contact_forms.locale'])
    .where('posts.type', '=', FORM_POST_TYPE)
    .where('posts.status', '!=', 'trash');
  for (const term of q.search ?? []) {
    const pattern = `%${likeEscape(term)}%`;
    query = query.where((eb) => eb.or([ilike(ctx.db, eb.ref('posts.title'), pattern), ilike(ctx.db, eb.ref('contact_forms.form'), pattern)]));
  }
  const dir = q.order === 'DESC' ? 'desc' : 'asc';
  for (const key of q.orderby ?? ['id']) query = query.orderBy(ORDER_COLUMNS[key], dir);
  query = query.orderBy('posts.id', dir);
  if (q.perPage !== undefined) query = query.limit(q.perPage).offset(q.offset ?? 0);
  return query.execute();
}

/** Stores `form` (inserting a post when its id is 0); returns the saved form. */
export async function saveForm(ctx: AppContext, form: ContactForm, authorId: number): Promise<ContactForm> {
  const zone = await siteTimeZone(ctx.options);
  const when = postDatePair(ctx.now(), zone);
  const props = {
    locale: form.locale,
    form: form.form,
    mail: JSON.stringify(form.mail),
    mail_2: JSON.stringify(form.mail_2),
    messages: JSON.stringify(form.messages),
    additional_settings: form.additional_settings,
  };
  return ctx.db.transaction().execute(async (trx) => {
    if (form.id === 0) {
      const slug = await uniquePostSlug(trx, FORM_POST_TYPE, form.title, undefined, 'contact-form');
      const row = await trx
        .insertInto('posts')
        .values({
          type: FORM_POST_TYPE, status: form.status, slug, title: form.title, content: form.form, excerpt: '', author: authorId, parent: 0,
          password: '', menu_order: 0, date: when.local, date_gmt: when.gmt, modified: when.local, modified_gmt: when.gmt, image_url: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const hash = crypto.createHash('sha256').update([authorId, row.id, Math.floor(ctx.now().getTime() / 1000), ctx.urls.home].join('|')).digest('hex');
      await trx.insertInto('contact_forms').values({ post_id: row.id, hash, ...props }).execute();
      return { ...form, id: row.id, slug, hash };
    }
    await trx.updateTable('posts').set({ title: form.title, content: form.form, modified: when.local, modified_gmt: when.gmt }).where('id', '=', form.id).execute();
    await trx.updateTable('contact_forms').set(props).where('post_id', '=', form.id).execute();
    return form;
  });
}

export async function deleteForm(ctx: AppContext, id: number): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('contact_forms').where('post_id', '=', id).execute();
    const r = await trx.deleteFrom('posts').where('id', '=', id).where('type', '=', FORM_POST_TYPE).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  });
}
