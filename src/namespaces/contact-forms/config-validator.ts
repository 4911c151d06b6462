/**
 * @module namespaces/contact-forms/config-validator
 * Configuration errors of a form (`config_errors` of an edit): bad mailboxes, a sender outside the
 * site's domain, malformed header lines, empty mail fields, reserved field names. Each section lists
 * `{message, link}`.
 */
import { scanFormTags } from './form-tags.js';
import type { ContactForm } from './forms.repo.js';
import type { MailProps } from './template.js';

const DOCS = 'https://contactform7.com/configuration-errors/';

const ERRORS = {
  invalid_mailbox_syntax: ['Invalid mailbox syntax is used.', 'invalid-mailbox-syntax'],
  email_not_in_site_domain: ['Sender email address does not belong to the site domain.', 'email-not-in-site-domain'],
  invalid_mail_header: ['There are invalid mail header fields.', 'invalid-mail-header'],
  maybe_empty: ['There is a possible empty field.', 'maybe-empty'],
  unavailable_names: ['Unavailable names (%names%) are used for form controls.', 'unavailable-names'],
} as const;

/** Names WordPress reserves as query variables; a form field with one breaks the submission. */
const RESERVED_NAMES = new Set(['m', 'p', 'posts', 'w', 'cat', 'withcomments', 'withoutcomments', 's', 'search', 'exact', 'sentence', 'calendar', 'page', 'paged', 'more', 'tb', 'pb', 'author', 'order', 'orderby', 'year', 'monthnum', 'day', 'hour', 'minute', 'second', 'name', 'category_name', 'tag', 'feed', 'author_name', 'pagename', 'page_id', 'error', 'attachment', 'attachment_id', 'subpost', 'subpost_id', 'preview', 'robots', 'taxonomy', 'term', 'cpage', 'post_type', 'embed']);

const EMAIL_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

type Entry = { message: string; link: string };

function entry(key: keyof typeof ERRORS, names?: string): Entry {
  const [message, slug] = ERRORS[key];
  return { message: names ? message.replace('%names%', names) : message, link: `${DOCS}${slug}/` };
}

/** The address of a mailbox `Name <addr>` or `addr`, with mail tags replaced by sample text. */
function mailboxAddress(text: string): string {
  const sample = text.replace(/\[[^\]]*\]/g, 'example');
  const m = /<([^>]*)>\s*$/.exec(sample);
  return (m ? m[1]! : sample).trim();
}

function siteDomain(home: string): string {
  try {
    return new URL(home).hostname.replace(/^www\./, '').toLowerCase();
  } catch {
    return '';
  }
}

function checkMail(section: string, mail: MailProps, home: string, out: Record<string, Entry[]>): void {
  const add = (field: string, e: Entry) => (out[`${section}.${field}`] ??= []).push(e);
  if (mail.subject.trim() === '') add('subject', entry('maybe_empty'));
  if (mail.body.trim() === '') add('body', entry('maybe_empty'));
  const sender = mailboxAddress(mail.sender);
  if (!EMAIL_RE.test(sender)) add('sender', entry('invalid_mailbox_syntax'));
  else {
    const domain = sender.slice(sender.lastIndexOf('@') + 1).toLowerCase();
    const site = siteDomain(home);
    if (site && domain !== site && !domain.endsWith(`.${site}`) && !site.endsWith(`.${domain}`)) add('sender', entry('email_not_in_site_domain'));
  }
  const recipients = mail.recipient.split(',').map((r) => r.trim()).filter(Boolean);
  if (recipients.length === 0) add('recipient', entry('maybe_empty'));
  else if (recipients.some((r) => !/^\[[^\]]+\]$/.test(r) && !EMAIL_RE.test(mailboxAddress(r)))) add('recipient', entry('invalid_mailbox_syntax'));
  const badHeader = mail.additional_headers
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .some((l) => !/^[0-9A-Za-z-]+:/.test(l));
  if (badHeader) add('additional_headers', entry('invalid_mail_header'));
}

export function configErrors(form: ContactForm, home: string): Record<string, Entry[]> | [] {
  const out: Record<string, Entry[]> = {};
  const reserved = [...new Set(scanFormTags(form.form).map((t) => t.name).filter((n) => RESERVED_NAMES.has(n)))];
  if (reserved.length) out['form.body'] = [entry('unavailable_names', reserved.join(', '))];
  checkMail('mail', form.mail, home, out);
  if (form.mail_2.active) checkMail('mail_2', form.mail_2, home, out);
  return Object.keys(out).length ? out : [];
}
