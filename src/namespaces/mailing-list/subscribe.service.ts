/**
 * @module namespaces/mailing-list/subscribe.service
 * A validated sign-up to each of the form's lists: through the remote list service when
 * `REMOTE_MAILINGLIST_URL` is set, else to the local list with a confirmation e-mail.
 *
 * The remote sign-up is the original's `process_subscribe_form`: every list is mapped first
 * (`list-data-mapper.ts`, reading the lists' merge fields and interests), then each list gets
 * `list_subscribe`: look the member up; a subscribed member is `already_subscribed` unless the form
 * updates existing members (then it stays subscribed and, with `replace_interests`, loses the
 * interests not chosen now); a pending member is first set unsubscribed so the service sends a new
 * opt-in e-mail; then the member is added (POST) or updated (PATCH) with `status` (`pending` with
 * double opt-in, else `subscribed`), `email_type`, `ip_signup`, merge fields, interests, language
 * and marketing permissions, and the form's tags are set (their failure is ignored).
 * As the original keeps only the last `list_subscribe` result, the last list's outcome is the answer:
 * undefined on success, else the error key (`already_subscribed`, a numeric API code, `''`).
 */
import net from 'node:net';
import type { AppContext } from '../../app-context.js';
import { createMailinglistClient, MailinglistApiError, type ListMember, type MailinglistClient, type MemberTag } from '../../remote/mailinglist-client.js';
import { phpTruthy } from '../../rest/php-builtins.js';
import type { SignupForm } from './forms.repo.js';
import { listInterestCategories, listMarketingPermissions, listMergeFields } from './list-facts.js';
import { mapSubscriber, type ListFactsSource, type MappedSubscriber } from './list-data-mapper.js';
import { getLocalMember, sendConfirmation, upsertLocalMember } from './local-list.js';

export const API_KEY_OPTION = 'mailinglist_api_key';

export interface Signup {
  email: string;
  /** The posted fields (upper-case names), NAME/FNAME/LNAME completed. */
  fields: Record<string, unknown>;
  ip: string;
  emailType: string;
  /** The visitor's `Accept-Language`, passed on to the service. */
  acceptLanguage?: string;
}

/** `get_subscriber_tags`: the form's tags to add, then those to remove. */
export function subscriberTags(form: SignupForm): MemberTag[] {
  return [...form.subscriberTags.map((name) => ({ name, status: 'active' as const })), ...form.removeSubscriberTags.map((name) => ({ name, status: 'inactive' as const }))];
}

function factsOf(ctx: AppContext, api: MailinglistClient, list: string): ListFactsSource {
  return {
    mergeFields: () => listMergeFields(ctx, api, list),
    interestCategories: () => listInterestCategories(ctx, api, list),
    marketingPermissions: () => listMarketingPermissions(ctx, api, list),
  };
}

/** The member fields sent for one list (`MC4WP_MailChimp_Subscriber::to_array`: nothing unset, no empty permissions). */
function memberArgs(form: SignupForm, s: Signup, mapped: MappedSubscriber): Record<string, unknown> {
  return {
    status: form.doubleOptin ? 'pending' : 'subscribed',
    email_address: mapped.email_address,
    interests: mapped.interests,
    merge_fields: mapped.merge_fields,
    email_type: s.emailType,
    // `mc4wp_get_request_ip_address` gives null (left out) for an address that is not one.
    ...(net.isIP(s.ip) ? { ip_signup: s.ip } : {}),
    ...(mapped.language !== undefined ? { language: mapped.language } : {}),
    ...(mapped.marketing_permissions.length > 0 ? { marketing_permissions: mapped.marketing_permissions } : {}),
  };
}

/** The member's interests as the update leaves them: the new choices over the old ones, which `replace` switches off first. */
function mergedInterests(existing: unknown, chosen: Record<string, boolean>, replace: boolean): Record<string, unknown> {
  const old: Record<string, unknown> = existing !== null && typeof existing === 'object' ? { ...(existing as Record<string, unknown>) } : { 0: existing };
  if (replace) for (const id of Object.keys(old)) old[id] = false;
  return { ...old, ...chosen };
}

async function remoteSubscribe(ctx: AppContext, endpoint: string, form: SignupForm, lists: string[], s: Signup): Promise<string | number | undefined> {
  const apiKey = String((await ctx.options.get<unknown>(API_KEY_OPTION, '')) ?? '');
  const api = createMailinglistClient({ apiKey, endpoint, ...(s.acceptLanguage ? { acceptLanguage: s.acceptLanguage } : {}) });
  // The original's map is keyed by list: a list named twice is signed up to once.
  const mapped = new Map<string, MappedSubscriber>();
  for (const list of lists) mapped.set(list, await mapSubscriber(s.fields, factsOf(ctx, api, list), ctx.now()));
  const tags = subscriberTags(form);
  let outcome: string | number | undefined = '';
  for (const [list, subscriber] of mapped) outcome = await listSubscribe(ctx, api, form, list, memberArgs(form, s, subscriber), tags);
  return outcome;
}

/** `list_subscribe` for one list: undefined on success, else the error key. */
async function listSubscribe(ctx: AppContext, api: MailinglistClient, form: SignupForm, list: string, args: Record<string, unknown>, tags: MemberTag[]): Promise<string | number | undefined> {
  const email = String(args.email_address);
  const fail = (e: unknown): number => {
    if (!(e instanceof MailinglistApiError)) throw e;
    ctx.log.warn({ code: e.code, list }, `mailing list API error: ${e.message}`);
    return e.code;
  };
  let existing: ListMember | undefined;
  try {
    existing = await api.getMember(list, email);
    if (existing?.status === 'subscribed') {
      // The original's error 214, "That subscriber already exists."
      if (!form.updateExisting) return 'already_subscribed';
      args.status = 'subscribed';
      if (existing.interests !== undefined && existing.interests !== null) args.interests = mergedInterests(existing.interests, args.interests as Record<string, boolean>, form.replaceInterests);
    } else if (existing && args.status === 'pending' && existing.status === 'pending') {
      // Makes the service send a new opt-in e-mail.
      await api.updateMember(list, email, { status: 'unsubscribed' });
    }
  } catch (e) {
    // CASE: a member gone between the look-up and the reset (404) is no error to the original.
    if (!(e instanceof MailinglistApiError && e.code === 404)) return fail(e);
  }
  let result: ListMember;
  try {
    result = existing ? await api.updateMember(list, email, args) : await api.addMember(list, args);
  } catch (e) {
    return fail(e);
  }
  if (tags.length > 0) {
    try {
      await api.updateMemberTags(list, email, tags);
    } catch (e) {
      if (!(e instanceof MailinglistApiError)) throw e;
      ctx.log.warn({ code: e.code, list }, `mailing list tags not set: ${e.message}`);
    }
  }
  // An answer without the member's id is a failure without an error code.
  return phpTruthy(result.id) ? undefined : '';
}

async function localSubscribe(ctx: AppContext, form: SignupForm, lists: string[], s: Signup): Promise<string | number | undefined> {
  let outcome: string | number | undefined;
  for (const list of lists) outcome = await localSubscribeOne(ctx, form, list, s);
  return outcome;
}

async function localSubscribeOne(ctx: AppContext, form: SignupForm, list: string, s: Signup): Promise<string | number | undefined> {
  const existing = await getLocalMember(ctx, list, s.email);
  if (existing?.status === 'subscribed') {
    if (!form.updateExisting) return 'already_subscribed';
    await upsertLocalMember(ctx, list, s.email, 'subscribed', s.fields);
    return undefined;
  }
  if (!form.doubleOptin) {
    await upsertLocalMember(ctx, list, s.email, 'subscribed', s.fields);
    return undefined;
  }
  await upsertLocalMember(ctx, list, s.email, 'pending', s.fields);
  try {
    await sendConfirmation(ctx, list, s.email);
  } catch (e) {
    ctx.log.warn({ list, err: e instanceof Error ? e.message : String(e) }, 'mailing list confirmation e-mail failed');
    return 0;
  }
  return undefined;
}

export function subscribe(ctx: AppContext, form: SignupForm, lists: string[], s: Signup): Promise<string | number | undefined> {
  const endpoint = ctx.config.remotes.mailinglist;
  return endpoint ? remoteSubscribe(ctx, endpoint, form, lists, s) : localSubscribe(ctx, form, lists, s);
}
