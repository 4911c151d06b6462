/**
 * @module namespaces/contact-forms/forms.present
 * A form as the original's REST answers show it: properties with the scanned `fields` and the parsed
 * additional settings, and the configuration errors of an edit.
 */
import type { ContactForm } from './forms.repo.js';
import { scanFormTags } from './form-tags.js';

/** `additional_settings.settings`: `[name, value]` per `name: value` line; a gap makes it an object keyed by line. */
export function parseAdditionalSettings(content: string): [string, string | boolean][] | Record<string, [string, string | boolean]> {
  const out: Record<string, [string, string | boolean]> = {};
  let gap = false;
  content.split('\n').forEach((line, i) => {
    const m = /^([a-zA-Z0-9_]+)[\t ]*:(.*)$/.exec(line);
    if (!m) {
      gap = true;
      return;
    }
    const raw = m[2]!.trim();
    out[String(i)] = [m[1]!.trim(), raw === 'on' || raw === 'true' ? true : raw === 'off' || raw === 'false' ? false : raw];
  });
  // PHP's array_filter keeps keys: a list only when no line was dropped before a kept one.
  const keys = Object.keys(out);
  const isList = !gap || keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => out[k]!) : out;
}

/** The value of setting `name` (last line wins), as the original's `additional_setting()`. */
export function settingValue(form: ContactForm, name: string): string | undefined {
  let value: string | undefined;
  for (const line of form.additional_settings.split('\n')) {
    const m = /^([a-zA-Z0-9_]+)[\t ]*:(.*)$/.exec(line);
    if (m && m[1]!.trim() === name) value = m[2]!.trim();
  }
  return value;
}

/** `is_true()`: the setting is `on`, `true` or `1`. */
export function settingIsTrue(form: ContactForm, name: string): boolean {
  const v = settingValue(form, name);
  return v !== undefined && ['on', 'true', '1'].includes(v.toLowerCase());
}

export function presentProperties(form: ContactForm): Record<string, unknown> {
  return {
    form: { content: form.form, fields: scanFormTags(form.form) },
    mail: form.mail,
    mail_2: form.mail_2,
    messages: form.messages,
    additional_settings: { content: form.additional_settings, settings: parseAdditionalSettings(form.additional_settings) },
  };
}

export function presentForm(form: ContactForm): Record<string, unknown> {
  return { id: form.id, slug: form.slug, title: form.title, locale: form.locale, properties: presentProperties(form) };
}
