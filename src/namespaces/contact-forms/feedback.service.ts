/**
 * @module namespaces/contact-forms/feedback.service
 * One submission through the original's pipeline, stopping at the first outcome: subscribers-only →
 * validation (schema rules, quiz) → acceptance → spam (user agent, disallowed words, the spam filter)
 * → mail (skipped in demo mode or with `skip_mail`) → stored unless `do_not_store`.
 */
import type { AppContext } from '../../app-context.js';
import { phpTruthy } from '../../rest/php-builtins.js';
import type { RestRequest } from '../../rest/route.js';
import { wpStripAllTags } from '../../rest/wp-sanitize.js';
import { spamfilterService } from '../spamfilter/index.js';
import { gmtNow, siteToday } from './clock.js';
import { hasOption, scanFormTags, tagOption, type FormTag } from './form-tags.js';
import type { ContactForm } from './forms.repo.js';
import { settingIsTrue } from './forms.present.js';
import { buildReplacer, composeMail, type MailContext } from './mail.js';
import { quizAnswerHash } from './refill.js';
import { keyedHash } from './secret.js';
import { countSubmissions, storeSubmission } from './submissions.repo.js';
import { buildSchema, validate } from './swv.js';

export type FeedbackStatus = 'mail_sent' | 'mail_failed' | 'validation_failed' | 'acceptance_missing' | 'spam' | 'aborted' | 'error';

export const SUBSCRIBERS_ONLY_MESSAGE = 'This contact form is available only for logged in users.';

/** `_wpcf7_unit_tag` with every character outside `A-Za-z0-9_-` removed. */
export function sanitizeUnitTag(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^A-Za-z0-9_-]/g, '') : '';
}

function postedValues(tags: readonly FormTag[], body: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const tag of tags) {
    if (!tag.name || tag.basetype === 'file' || tag.basetype === 'submit' || tag.name in out) continue;
    const v = body[tag.name];
    const clean = (x: unknown) => String(x).replace(/\0/g, '').trim();
    if (Array.isArray(v)) out[tag.name] = v.filter((x) => typeof x === 'string' || typeof x === 'number').map(clean);
    else if (v && typeof v === 'object') out[tag.name] = Object.values(v).filter((x) => typeof x === 'string').map(clean);
    else if (v !== undefined && v !== null) out[tag.name] = clean(v);
    else out[tag.name] = '';
  }
  return out;
}

function flatJoin(values: Record<string, string | string[]>): string[] {
  return Object.values(values).map((v) => (Array.isArray(v) ? v.join(', ') : v));
}

async function postedDataHash(ctx: AppContext, ip: string, unitTag: string, values: Record<string, string | string[]>): Promise<string> {
  const tick = Math.ceil(ctx.now().getTime() / 1000 / 1800);
  return keyedHash(ctx, 'wpcf7_submission', [tick, ip, unitTag, ...flatJoin(values)].join(','));
}

async function hasDisallowedWords(ctx: AppContext, haystack: string): Promise<boolean> {
  const list = String(await ctx.options.get<unknown>('disallowed_keys', '') ?? '');
  const words = list.split('\n').map((w) => w.trim()).filter(Boolean);
  const text = haystack.toLowerCase();
  return words.some((w) => text.includes(w.toLowerCase()));
}

export interface FeedbackResult {
  status: FeedbackStatus;
  message: string;
  invalid: { field: string; message: string; idref: string | null }[];
  postedDataHash?: string;
  demoMode: boolean;
}

/** The tag's `id:` option as the original reports it in `idref`: a valid name not starting with `wpcf7`. */
function idref(tag: FormTag | undefined): string | null {
  const id = tag && tagOption(tag, 'id', /^([-0-9a-zA-Z_]+)$/);
  return id && /^[A-Za-z][-A-Za-z0-9_:.]*$/.test(id) && !id.startsWith('wpcf7') ? id : null;
}

/** An acceptance box left as it must not be: unchecked, or checked when `invert`. A posted `0` is unchecked. */
function refused(tag: FormTag, body: Record<string, unknown>): boolean {
  const checked = phpTruthy(body[tag.name]);
  return hasOption(tag, 'invert') ? checked : !checked;
}

export async function submitFeedback(ctx: AppContext, form: ContactForm, req: RestRequest, unitTag: string): Promise<FeedbackResult> {
  const demoMode = settingIsTrue(form, 'demo_mode');
  const subscribersOnly = settingIsTrue(form, 'subscribers_only');
  if (subscribersOnly && !req.user?.can('read')) {
    return { status: 'error', message: SUBSCRIBERS_ONLY_MESSAGE, invalid: [], demoMode };
  }
  const tags = scanFormTags(form.form);
  const body = req.body;
  const values = postedValues(tags, body);
  const files: MailContext['files'] = {};
  for (const tag of tags.filter((t) => t.basetype === 'file')) {
    const f = req.files[tag.name];
    if (f && f.filename !== '') files[tag.name] = f;
  }
  const userAgent = req.headers['user-agent'] ?? '';
  const containerPost = Number(body._wpcf7_container_post ?? 0);
  const mc: MailContext = {
    formTitle: form.title,
    formId: form.id,
    tags,
    values,
    files,
    remoteIp: req.ip,
    userAgent,
    url: req.headers.referer ?? '',
    containerPost: Number.isSafeInteger(containerPost) && containerPost > 0 ? containerPost : 0,
    user: req.user ? { login: req.user.login, email: req.user.email, displayName: req.user.displayName } : null,
  };
  // The original's `filter_message`: a message may use mail tags ("Thank you, [your-name]"); it is shown as plain text.
  const replace = await buildReplacer(ctx, mc);
  const messages = Object.fromEntries(Object.entries(form.messages).map(([k, v]) => [k, wpStripAllTags(replace(v).text)]));
  const result = (status: FeedbackStatus, messageKey: string, extra: Partial<FeedbackResult> = {}): FeedbackResult => ({
    status,
    message: messages[messageKey] ?? '',
    invalid: [],
    demoMode,
    ...extra,
  });

  // Validation: the schema rules, then each tag's own check in form order (quiz answers, and
  // acceptance boxes when `acceptance_as_validation` is on).
  const schema = buildSchema(tags, messages, form.locale, await siteToday(ctx));
  const invalid = validate(schema, {
    values,
    files: Object.fromEntries(Object.entries(files).map(([k, f]) => [k, { filename: f.filename, mimetype: f.mimetype, size: f.data.length }])),
  });
  const acceptanceAsValidation = settingIsTrue(form, 'acceptance_as_validation');
  for (const tag of tags) {
    if (!tag.name || invalid.has(tag.name)) continue;
    if (tag.basetype === 'quiz') {
      const answer = values[tag.name];
      const expected = body[`_wpcf7_quiz_answer_${tag.name}`];
      const given = await quizAnswerHash(ctx, Array.isArray(answer) ? answer.join('') : (answer ?? ''));
      if (typeof expected !== 'string' || expected !== given) invalid.set(tag.name, messages.quiz_answer_not_correct ?? '');
    } else if (tag.type === 'acceptance' && acceptanceAsValidation && !hasOption(tag, 'optional') && refused(tag, body)) {
      invalid.set(tag.name, messages.accept_terms ?? '');
    }
  }
  if (invalid.size > 0) {
    const byName = new Map(tags.map((t) => [t.name, t]));
    return result('validation_failed', 'validation_error', {
      postedDataHash: '',
      invalid: [...invalid].map(([field, message]) => ({ field, message, idref: idref(byName.get(field)) })),
    });
  }

  // Acceptance boxes.
  for (const tag of tags.filter((t) => t.type === 'acceptance' && t.name && !hasOption(t, 'optional'))) {
    if (refused(tag, body)) return result('acceptance_missing', 'accept_terms', { postedDataHash: '' });
  }

  // Spam. A subscribers-only form trusts its signed-in senders: no spam check at all.
  const flat = flatJoin(values);
  let spam = false;
  let spamGuid = '';
  let discard = false;
  if (!subscribersOnly) {
    spam = userAgent.length < 2 || (await hasDisallowedWords(ctx, [...flat, req.ip, userAgent].join('\n')));
    if (!spam && ctx.areas.isEnabled('spamfilter')) {
      const byType = (type: string) => tags.filter((t) => t.basetype === type).map((t) => values[t.name]).flat().filter(Boolean).join(' ');
      const check = await spamfilterService.checkSpam(ctx, {
        source: 'contact-form',
        type: 'contact-form',
        content: tags.filter((t) => t.basetype === 'textarea' || t.basetype === 'text').map((t) => [values[t.name]].flat().join(' ')).join('\n'),
        author: tags.filter((t) => t.basetype === 'text' && /name/i.test(t.name)).map((t) => values[t.name]).join(' '),
        email: byType('email').split(' ')[0] ?? '',
        url: byType('url').split(' ')[0] ?? '',
        ip: req.ip,
        userAgent,
        referrer: req.headers.referer ?? '',
        userId: req.user?.id ?? 0,
      });
      spam = check.spam;
      spamGuid = check.guid;
      discard = check.discard;
    }
  }
  const store = async (status: string) => {
    if (settingIsTrue(form, 'do_not_store') || discard) return;
    await storeSubmission(ctx, { formId: form.id, status, fields: values, remoteIp: req.ip, userAgent, userId: req.user?.id ?? 0, spamGuid, createdGmt: gmtNow(ctx) });
  };
  if (spam) {
    await store('spam');
    return result('spam', 'spam', { postedDataHash: '' });
  }

  const hash = await postedDataHash(ctx, req.ip, unitTag, values);
  const skipMail = demoMode || settingIsTrue(form, 'skip_mail');
  const sent = skipMail || (await sendTemplates(ctx, form, mc));
  await store(sent ? 'mail_sent' : 'mail_failed');
  return sent ? result('mail_sent', 'mail_sent_ok', { postedDataHash: hash }) : result('mail_failed', 'mail_sent_ng', { postedDataHash: hash });
}

async function sendTemplates(ctx: AppContext, form: ContactForm, mc: MailContext): Promise<boolean> {
  try {
    const first = await composeMail(ctx, form.mail, mc);
    if (!first) return false;
    await ctx.mailer.send(first);
    if (form.mail_2.active) {
      const second = await composeMail(ctx, form.mail_2, mc);
      if (second) await ctx.mailer.send(second);
    }
    return true;
  } catch (e) {
    ctx.log.warn({ form: form.id, err: e instanceof Error ? e.message : String(e) }, 'contact form mail failed');
    return false;
  }
}

export { countSubmissions };
