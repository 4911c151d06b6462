/**
 * @module namespaces/core/users.present
 * A user as the original users controller shows it. `view` and `embed`: id, name, url, description,
 * link, slug, avatar_urls; `edit` adds the account fields (username, email, roles, capabilities, ...).
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import type { SiteUser } from '../../auth/index.js';
import { CORE_NS } from './application-passwords.present.js';

const AVATAR_SIZES = [24, 48, 96] as const;

/** Gravatar URLs by size (SHA-256 of the trimmed, lower-cased address). */
function avatarUrls(email: string): Record<string, string> {
  const hash = crypto.createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  return Object.fromEntries(AVATAR_SIZES.map((s) => [String(s), `https://secure.gravatar.com/avatar/${hash}?s=${s}&d=mm&r=g`]));
}

/** The user object for `context`. */
export function presentUser(ctx: AppContext, user: SiteUser, context: string): Record<string, unknown> {
  const edit = context === 'edit';
  const out: Record<string, unknown> = { id: user.id };
  if (edit) out.username = user.login;
  out.name = user.displayName;
  if (edit) {
    out.first_name = '';
    out.last_name = '';
    out.email = user.email;
  }
  out.url = user.url;
  out.description = '';
  out.link = `${ctx.urls.home}/author/${user.nicename}/`;
  if (edit) {
    out.locale = 'en_US';
    out.nickname = user.login;
  }
  out.slug = user.nicename;
  if (edit) {
    out.registered_date = `${user.registeredGmt.replace(' ', 'T')}+00:00`;
    out.roles = [...user.roles];
    out.capabilities = Object.fromEntries(user.capabilities().map((c) => [c, true]));
    out.extra_capabilities = Object.fromEntries(user.roles.map((r) => [r, true]));
  }
  out.avatar_urls = avatarUrls(user.email);
  out._links = { self: [{ href: ctx.urls.rest(`/${CORE_NS}/users/${user.id}`) }] };
  return out;
}
