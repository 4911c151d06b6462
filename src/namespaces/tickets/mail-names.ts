/**
 * @module namespaces/tickets/mail-names
 * Names typed by buyers (purchaser and attendee names) as they appear in the site's ticket e-mail.
 * Anyone can check out for any address, so a name is attacker text in a message the site signs; mail
 * clients turn anything that looks like a URL, a domain or an address into a link, in the HTML and the
 * plain-text part alike, and no markup reliably stops them.
 *
 * Decision: a name is shown as plain, escaped text, shortened to {@link MAX_NAME_LENGTH} characters,
 * with URL-like parts "defanged" the way security mail writes indicators (`http://evil.example` →
 * `hxxp[:]//evil[.]example`, `evil.com` → `evil[.]com`): still readable to the buyer, never clickable.
 * Checkout does not refuse such names: the originals (Event Tickets, WordPress) accept any text as
 * a name, and a refusal would only move the text elsewhere. Invisible characters (a zero-width joiner
 * between the dots) were rejected: they survive copy and paste into the address bar and some clients
 * link across them anyway.
 */

/** Characters of a name kept in an e-mail. */
export const MAX_NAME_LENGTH = 100;

const SCHEME = /\b([a-z][a-z0-9+.-]{0,20}):\/\//gi;
/** A dot between a label and a letter label of two or more: a domain, not an initial (`J. R. R.`). */
const DOMAIN_DOT = /([a-z0-9-])\.(?=[a-z][a-z0-9-]+)/gi;

/** `name` for a ticket e-mail: whitespace collapsed, shortened, URL-like parts defanged. */
export function mailSafeName(name: string): string {
  let text = name.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_NAME_LENGTH) text = `${text.slice(0, MAX_NAME_LENGTH - 1)}…`;
  return text
    .replace(SCHEME, (_m, scheme: string) => `${scheme.toLowerCase().startsWith('http') ? `hxxp${scheme.slice(4)}` : scheme}[:]//`)
    .replace(DOMAIN_DOT, '$1[.]');
}
