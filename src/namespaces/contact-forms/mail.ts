/**
 * @module namespaces/contact-forms/mail
 * The form's mail templates filled in and sent over SMTP: `[field]` tags (the mail value of piped
 * options), `[_raw_field]`, and the special tags (`[_site_title]`, `[_remote_ip]`, `[_date]` …).
 * Values placed in header fields lose their CR/LF, so a field can never add a header.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import type { MailMessage } from '../../remote/mailer.js';
import { siteTimeZone, stripTags } from '../../content/posts.js';
import { pipeAfter, type FormTag } from './form-tags.js';
import type { MailProps } from './template.js';

/** What a submission brings to its mail. */
export interface MailContext {
  formTitle: string;
  formId: number;
  tags: readonly FormTag[];
  values: Record<string, string | string[]>;
  files: Record<string, { filename: string; mimetype: string; data: Buffer }>;
  remoteIp: string;
  userAgent: string;
  url: string;
  containerPost: number;
  user: { login: string; email: string; displayName: string } | null;
}

async function adminEmail(ctx: AppContext): Promise<string> {
  const stored = await ctx.options.get<unknown>('admin_email', null);
  if (typeof stored === 'string' && stored) return stored;
  const rows = await ctx.db.selectFrom('users').select(['email', 'roles']).orderBy('id').limit(50).execute();
  return rows.find((r) => r.roles.includes('"administrator"'))?.email ?? ctx.config.mailFrom;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

/** Expands every mail tag of `template`; `header` strips line breaks from inserted values. */
export async function buildReplacer(ctx: AppContext, mc: MailContext): Promise<(template: string, opts?: { header?: boolean; html?: boolean }) => { text: string; blankTags: boolean }> {
  const zone = await siteTimeZone(ctx.options);
  const now = DateTime.fromJSDate(ctx.now()).setZone(zone);
  const home = ctx.urls.home;
  const specials: Record<string, string> = {
    _site_title: String(await ctx.options.get('blogname')),
    _site_description: String(await ctx.options.get('blogdescription')),
    _site_url: home,
    _site_domain: new URL(home).hostname,
    _site_admin_email: await adminEmail(ctx),
    _remote_ip: mc.remoteIp,
    _user_agent: mc.userAgent,
    _url: mc.url,
    _date: now.toFormat('LLLL d, yyyy'),
    _time: now.toFormat('h:mm a'),
    _invalid_fields: '0',
    _contact_form_title: mc.formTitle,
    _post_id: mc.containerPost ? String(mc.containerPost) : '',
    _user_login: mc.user?.login ?? '',
    _user_email: mc.user?.email ?? '',
    _user_display_name: mc.user?.displayName ?? '',
  };
  const tagsByName = new Map(mc.tags.map((t) => [t.name, t]));
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (template, opts = {}) => {
    let blankTags = false;
    const text = template.replace(/\[(_raw_)?([A-Za-z_][-A-Za-z0-9_:.]*)\]/g, (whole, raw: string | undefined, name: string) => {
      let value: string | undefined;
      if (!raw && name in specials) value = specials[name];
      else if (tagsByName.has(name)) {
        const tag = tagsByName.get(name)!;
        if (tag.basetype === 'file') value = mc.files[name]?.filename ?? '';
        else {
          const v = mc.values[name];
          const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
          value = list.map((x) => (raw ? x : pipeAfter(tag, x))).join(', ');
        }
        if (value === '') blankTags = true;
      }
      if (value === undefined) return whole;
      if (opts.header) value = oneLine(value);
      return opts.html ? esc(value) : value;
    });
    return { text, blankTags };
  };
}

const EMAIL_RE = /^[^\s@<>,;]+@[^\s@<>,;]+$/;

/** The mail of one template, or undefined when its recipient or sender is unusable. */
export async function composeMail(ctx: AppContext, mail: MailProps, mc: MailContext): Promise<MailMessage | undefined> {
  const replace = await buildReplacer(ctx, mc);
  const html = Boolean(mail.use_html);
  const header = (t: string) => oneLine(replace(t, { header: true }).text).trim();
  const to = header(mail.recipient);
  const from = header(mail.sender);
  const addresses = to.split(',').map((a) => a.trim()).filter(Boolean);
  if (addresses.length === 0 || addresses.some((a) => !EMAIL_RE.test(a.replace(/^.*<([^>]*)>\s*$/, '$1')))) return undefined;
  let body: string;
  if (mail.exclude_blank) {
    body = mail.body
      .split('\n')
      .map((line) => replace(line, { html }))
      .filter((r) => !r.blankTags)
      .map((r) => r.text)
      .join('\n');
  } else body = replace(mail.body, { html }).text;
  const message: MailMessage = { from, to: addresses.join(', '), subject: header(mail.subject), text: html ? stripTags(body) : body };
  if (html) message.html = body;
  for (const line of mail.additional_headers.split('\n')) {
    const m = /^([0-9A-Za-z-]+):(.*)$/.exec(line.trim());
    if (!m) continue;
    const value = oneLine(replace(m[2]!, { header: true }).text).trim();
    if (!value) continue;
    const name = m[1]!.toLowerCase();
    if (name === 'reply-to') message.replyTo = value;
    else if (name === 'cc') message.cc = value;
    else if (name === 'bcc') message.bcc = value;
  }
  const attachments = mail.attachments
    .split('\n')
    .flatMap((line) => [...line.matchAll(/\[([A-Za-z][-A-Za-z0-9_:.]*)\]/g)].map((m) => mc.files[m[1]!]))
    .filter((f): f is NonNullable<typeof f> => f !== undefined);
  if (attachments.length) message.attachments = attachments.map((f) => ({ filename: f.filename, content: f.data, contentType: f.mimetype }));
  return message;
}
