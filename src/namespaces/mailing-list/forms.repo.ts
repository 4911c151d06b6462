/**
 * @module namespaces/mailing-list/forms.repo
 * Sign-up forms: a post of type `mc4wp-form` and its settings in `mailinglist_forms` (lists, double
 * opt-in, update existing members, replace their interests, tags to add and to remove, required
 * fields, message overrides, redirect), with the original's defaults (`default-form-settings.php`).
 */
import type { AppContext } from '../../app-context.js';
import { postDatePair, siteTimeZone, uniquePostSlug } from '../../content/posts.js';
import { phpTrim } from '../../rest/php-builtins.js';

export const SIGNUP_POST_TYPE = 'mc4wp-form';

export const DEFAULT_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  subscribed: 'Thank you, your sign-up request was successful! Please check your email inbox to confirm.',
  updated: 'Thank you, your records have been updated!',
  unsubscribed: 'You were successfully unsubscribed.',
  not_subscribed: 'Given email address is not subscribed.',
  error: 'Oops. Something went wrong. Please try again later.',
  invalid_email: 'Please provide a valid email address.',
  already_subscribed: 'Given email address is already subscribed, thank you!',
  required_field_missing: 'Please fill in the required fields.',
  no_lists_selected: 'Please select at least one list.',
  spam: 'Your submission was marked as spam.',
});

export interface SignupForm {
  id: number;
  title: string;
  status: string;
  lists: string[];
  doubleOptin: boolean;
  updateExisting: boolean;
  /** With `updateExisting`: interest groups of the member not chosen now are switched off. */
  replaceInterests: boolean;
  /** Tags given to the member (`subscriber_tags`). */
  subscriberTags: string[];
  /** Tags taken off the member (`remove_subscriber_tags`). */
  removeSubscriberTags: string[];
  requiredFields: string[];
  messages: Record<string, string>;
  redirect: string;
}

type Row = {
  id: number;
  title: string;
  status: string;
  lists: string;
  double_optin: number;
  update_existing: number;
  replace_interests: number;
  subscriber_tags: string;
  remove_subscriber_tags: string;
  required_fields: string;
  messages: string;
  redirect: string;
};

/** `parse_tags_from_setting`: a comma list, each name trimmed, empty ones left out. */
export function parseTags(setting: string): string[] {
  return setting
    .split(',')
    .map((t) => phpTrim(t))
    .filter((t) => t !== '');
}

/**
 * `get_required_fields`: upper-cased, `[key]` parts removed, EMAIL left out (it has its own
 * check), duplicates and empties dropped, and a `GROUP.sub` name keeps its sub-key lower-cased.
 */
export function requiredFields(setting: string): string[] {
  const names = setting
    .toUpperCase()
    .replace(/\[\w+\]/g, '')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '' && f !== 'EMAIL')
    .map((f) => (f.indexOf('.') > 0 ? f.slice(0, f.indexOf('.')) + f.slice(f.indexOf('.')).toLowerCase() : f));
  return [...new Set(names)];
}

function toForm(r: Row): SignupForm {
  let overrides: Record<string, string> = {};
  try {
    overrides = JSON.parse(r.messages) as Record<string, string>;
  } catch {
    /* defaults only */
  }
  let lists: string[] = [];
  try {
    lists = (JSON.parse(r.lists) as unknown[]).map(String);
  } catch {
    /* none */
  }
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    lists,
    doubleOptin: Number(r.double_optin) === 1,
    updateExisting: Number(r.update_existing) === 1,
    replaceInterests: Number(r.replace_interests) === 1,
    subscriberTags: parseTags(r.subscriber_tags),
    removeSubscriberTags: parseTags(r.remove_subscriber_tags),
    requiredFields: requiredFields(r.required_fields),
    messages: { ...DEFAULT_MESSAGES, ...overrides },
    redirect: r.redirect,
  };
}

function base(ctx: AppContext) {
  return ctx.db
    .selectFrom('posts')
    .innerJoin('mailinglist_forms', 'mailinglist_forms.post_id', 'posts.id')
    .select(['posts.id', 'posts.title', 'posts.status', 'mailinglist_forms.lists', 'mailinglist_forms.double_optin', 'mailinglist_forms.update_existing', 'mailinglist_forms.replace_interests', 'mailinglist_forms.subscriber_tags', 'mailinglist_forms.remove_subscriber_tags', 'mailinglist_forms.required_fields', 'mailinglist_forms.messages', 'mailinglist_forms.redirect'])
    .where('posts.type', '=', SIGNUP_POST_TYPE);
}

/** A published form by id; id 0 is the first published form (as the original falls back). */
export async function findSignupForm(ctx: AppContext, id: number): Promise<SignupForm | undefined> {
  if (!Number.isSafeInteger(id) || id < 0 || id > 2 ** 31 - 1) return undefined;
  let q = base(ctx).where('posts.status', '=', 'publish');
  q = id === 0 ? q.orderBy('posts.id').limit(1) : q.where('posts.id', '=', id);
  const row = await q.executeTakeFirst();
  return row ? toForm(row) : undefined;
}

export async function listSignupForms(ctx: AppContext): Promise<SignupForm[]> {
  return (await base(ctx).orderBy('posts.id').execute()).map(toForm);
}

export interface NewSignupForm {
  title: string;
  lists: string[];
  doubleOptin?: boolean;
  updateExisting?: boolean;
  replaceInterests?: boolean;
  subscriberTags?: string[];
  removeSubscriberTags?: string[];
  requiredFields?: string[];
  messages?: Record<string, string>;
  redirect?: string;
}

export async function createSignupForm(ctx: AppContext, input: NewSignupForm, authorId = 0): Promise<SignupForm> {
  const title = input.title.trim().slice(0, 200) || 'Sign-up form';
  const lists = [...new Set(input.lists.map((l) => l.trim()).filter(Boolean))].slice(0, 50);
  const zone = await siteTimeZone(ctx.options);
  const when = postDatePair(ctx.now(), zone);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const slug = await uniquePostSlug(trx, SIGNUP_POST_TYPE, title, undefined, 'sign-up-form');
    const row = await trx
      .insertInto('posts')
      .values({ type: SIGNUP_POST_TYPE, status: 'publish', slug, title, content: '', excerpt: '', author: authorId, parent: 0, password: '', menu_order: 0, date: when.local, date_gmt: when.gmt, modified: when.local, modified_gmt: when.gmt, image_url: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('mailinglist_forms')
      .values({
        post_id: row.id,
        lists: JSON.stringify(lists),
        double_optin: input.doubleOptin === false ? 0 : 1,
        update_existing: input.updateExisting ? 1 : 0,
        replace_interests: input.replaceInterests === false ? 0 : 1,
        subscriber_tags: (input.subscriberTags ?? []).join(','),
        remove_subscriber_tags: (input.removeSubscriberTags ?? []).join(','),
        required_fields: (input.requiredFields ?? ['EMAIL']).join(','),
        messages: JSON.stringify(input.messages ?? {}),
        redirect: input.redirect ?? '',
      })
      .execute();
    return row.id;
  });
  return (await findSignupForm(ctx, id))!;
}
