/**
 * @module namespaces/spamfilter/classifier
 * The built-in spam classifier used when no remote service is configured: a Bernoulli naive-Bayes
 * model over the distinct tokens of a submission (words of the text and the author's name, the
 * e-mail address and its domain, link hosts and counts, the user agent). Administrators train it by
 * marking checks spam or ham; the counts live in `spamfilter_tokens` (the row with token `''` holds the
 * number of spam and ham documents).
 */
import type { Db } from '../../storage/db.js';

/** The submission fields the classifier looks at. */
export interface ClassifierInput {
  content?: string;
  author?: string;
  email?: string;
  url?: string;
  userAgent?: string;
}

/** At most this many distinct tokens per submission are scored and trained. */
const MAX_TOKENS = 400;
const DOCS = '';

function words(text: string, prefix: string, into: Set<string>): void {
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}$€£!]{2,30}/gu)) into.add(`${prefix}${m[0]}`);
}

/** The distinct tokens of a submission, each at most 64 characters. */
export function tokenize(input: ClassifierInput): string[] {
  const out = new Set<string>();
  const content = input.content ?? '';
  const links = [...content.matchAll(/\bhttps?:\/\/([^\s/"'<>?#]+)/gi)].map((m) => m[1]!.toLowerCase());
  words(content.replace(/\bhttps?:\/\/\S+/gi, ' '), '', out);
  for (const host of links) out.add(`link:${host}`);
  out.add(`links:${Math.min(links.length, 5)}`);
  if (/<a\s/i.test(content)) out.add('html:anchor');
  words(input.author ?? '', 'author:', out);
  const email = (input.email ?? '').toLowerCase().trim();
  if (email) {
    const at = email.lastIndexOf('@');
    out.add(`email:${email}`);
    if (at > 0) out.add(`domain:${email.slice(at + 1)}`);
  }
  if (input.url) {
    try {
      out.add(`url:${new URL(input.url).hostname.toLowerCase()}`);
    } catch {
      out.add('url:invalid');
    }
  }
  const ua = (input.userAgent ?? '').toLowerCase();
  const family = /bot|crawl|spider|curl|wget|python|java\/|go-http|libwww/.exec(ua)?.[0] ?? (/mozilla\//.test(ua) ? 'browser' : ua ? 'other' : 'none');
  out.add(`ua:${family}`);
  return [...out].map((t) => t.slice(0, 64)).slice(0, MAX_TOKENS);
}

/** Probability (0–1) that a submission with `tokens` is spam, from the stored counts. */
export async function spamProbability(db: Db, tokens: readonly string[]): Promise<number> {
  const rows = await db.selectFrom('spamfilter_tokens').selectAll().where('token', 'in', [DOCS, ...tokens]).execute();
  const counts = new Map(rows.map((r) => [r.token, r]));
  const docs = counts.get(DOCS);
  const spamDocs = Number(docs?.spam ?? 0);
  const hamDocs = Number(docs?.ham ?? 0);
  // Until both kinds have examples the model cannot tell them apart: everything passes.
  if (spamDocs === 0 || hamDocs === 0) return 0;
  let logOdds = Math.log(spamDocs / hamDocs);
  for (const token of tokens) {
    const c = counts.get(token);
    if (!c) continue; // never seen: carries no evidence
    const pSpam = (Number(c.spam) + 1) / (spamDocs + 2);
    const pHam = (Number(c.ham) + 1) / (hamDocs + 2);
    logOdds += Math.log(pSpam / pHam);
  }
  return 1 / (1 + Math.exp(-logOdds));
}

/** Adds (`delta` 1) or removes (`delta` -1) one document of `label` with `tokens`. */
export async function train(db: Db, tokens: readonly string[], label: 'spam' | 'ham', delta: 1 | -1): Promise<void> {
  const rows = [DOCS, ...tokens].map((token) => ({ token, spam: label === 'spam' ? delta : 0, ham: label === 'ham' ? delta : 0 }));
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('spamfilter_tokens')
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, spam: Math.max(0, r.spam), ham: Math.max(0, r.ham) })))
      .onConflict((oc) =>
        oc.column('token').doUpdateSet((eb) =>
          label === 'spam'
            ? { spam: eb('spamfilter_tokens.spam', '+', delta) }
            : { ham: eb('spamfilter_tokens.ham', '+', delta) },
        ),
      )
      .execute();
  }
}
