/**
 * @module namespaces/mailing-list/subscribe.service
 * A validated sign-up to each of the form's lists: through the remote list service when
 * `REMOTE_MAILINGLIST_URL` is set (the original's `list_subscribe`: look the member up, then add or
 * update; `pending` with double opt-in), else to the local list with a confirmation e-mail.
 * Every list is tried, and, as the original keeps only the last `list_subscribe` result, the last
 * list's outcome is the answer: undefined on success, else the error key (`already_subscribed`, a
 * numeric API code, …).
 */
import type { AppContext } from '../../app-context.js';
import { createMailinglistClient, MailinglistApiError } from '../../remote/mailinglist-client.js';
import type { SignupForm } from './forms.repo.js';
import { getLocalMember, sendConfirmation, upsertLocalMember } from './local-list.js';

export const API_KEY_OPTION = 'mailinglist_api_key';

export interface Signup {
  email: string;
  fields: Record<string, unknown>;
  ip: string;
  emailType: string;
}

async function remoteSubscribe(ctx: AppContext, endpoint: string, form: SignupForm, lists: string[], s: Signup): Promise<string | number | undefined> {
  const apiKey = String((await ctx.options.get<unknown>(API_KEY_OPTION, '')) ?? '');
  const api = createMailinglistClient({ apiKey, endpoint });
  // The original's data mapper skips EMAIL and every `empty()` value ('', '0', an empty list), so
  // a field left blank never overwrites what the service holds.
  const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === '0' || (typeof v === 'object' && Object.keys(v).length === 0);
  const merge = Object.fromEntries(Object.entries(s.fields).filter(([k, v]) => k !== 'EMAIL' && !isEmpty(v)));
  let outcome: string | number | undefined;
  for (const list of lists) outcome = await remoteSubscribeOne(api, ctx, form, list, s, merge);
  return outcome;
}

/** One list (`list_subscribe`): undefined on success, else the error key. */
async function remoteSubscribeOne(
  api: ReturnType<typeof createMailinglistClient>,
  ctx: AppContext,
  form: SignupForm,
  list: string,
  s: Signup,
  merge: Record<string, unknown>,
): Promise<string | number | undefined> {
  const args: Record<string, unknown> = {
    email_address: s.email,
    status: form.doubleOptin ? 'pending' : 'subscribed',
    email_type: s.emailType,
    ip_signup: s.ip,
    merge_fields: merge,
  };
  try {
    const existing = await api.getMember(list, s.email);
    if (existing?.status === 'subscribed') {
      if (!form.updateExisting) return 'already_subscribed';
      args.status = 'subscribed';
    } else if (existing && args.status === 'pending' && existing.status === 'pending') {
      // Makes the service send a new opt-in e-mail.
      await api.updateMember(list, s.email, { status: 'unsubscribed' });
    }
    if (existing) await api.updateMember(list, s.email, args);
    else await api.addMember(list, args);
  } catch (e) {
    if (e instanceof MailinglistApiError) {
      ctx.log.warn({ code: e.code, list }, `mailing list API error: ${e.message}`);
      return e.code;
    }
    throw e;
  }
  return undefined;
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
