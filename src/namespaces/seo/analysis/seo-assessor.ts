/**
 * @module namespaces/seo/analysis/seo-assessor
 * The SEO assessments of a post with a focus keyphrase, each rated 0–9 (−10 for over-use), with the
 * original's boundaries: keyphrase in title, slug, introduction, meta description (presence and
 * length), density, text length, links, image alt texts, keyphrase length and title width.
 */
import { countPhrase, hasAllWords, imageAlts, links, paragraphs, plainText, sentences, words } from './text.js';
import { overallScore } from './ranks.js';

export interface SeoInput {
  keyphrase: string;
  /** The SEO title (the post title when none is set). */
  title: string;
  slug: string;
  /** Content HTML. */
  content: string;
  metaDescription: string;
  /** Home URL of the site, to tell internal links from outbound ones. */
  home: string;
}

export interface Assessment {
  id: string;
  rating: number;
}

function keyphraseInTitle(i: SeoInput): number {
  const title = words(i.title).join(' ');
  const phrase = words(i.keyphrase).join(' ');
  if (title.startsWith(phrase)) return 9;
  if (countPhrase(i.title, i.keyphrase) > 0) return 6;
  return 2;
}

function keyphraseInSlug(i: SeoInput): number {
  const slug = i.slug.replace(/-/g, ' ');
  if (countPhrase(slug, i.keyphrase) > 0) return 9;
  const kw = words(i.keyphrase);
  const have = new Set(words(slug));
  const share = kw.filter((w) => have.has(w)).length / Math.max(1, kw.length);
  return share >= 0.5 ? 6 : 3;
}

function keyphraseInIntroduction(i: SeoInput): number {
  const first = paragraphs(i.content)[0] ?? '';
  if (sentences(first).some((s) => hasAllWords(s, i.keyphrase))) return 9;
  if (hasAllWords(first, i.keyphrase)) return 6;
  return 3;
}

function metaDescriptionLength(i: SeoInput): number {
  const n = i.metaDescription.trim().length;
  if (n === 0) return 1;
  if (n < 120 || n > 156) return 6;
  return 9;
}

function keyphraseInMetaDescription(i: SeoInput): number {
  if (i.metaDescription.trim() === '') return 1;
  const n = countPhrase(i.metaDescription, i.keyphrase);
  return n === 1 || n === 2 ? 9 : 3;
}

/** Density in percent of the keyphrase's occurrences per word of text. */
export function keyphraseDensity(text: string, keyphrase: string): number {
  const total = words(text).length;
  return total === 0 ? 0 : (countPhrase(text, keyphrase) / total) * 100;
}

function density(i: SeoInput): number {
  const text = plainText(i.content);
  if (words(text).length < 100) return countPhrase(text, i.keyphrase) > 0 ? 9 : 4;
  const d = keyphraseDensity(text, i.keyphrase);
  if (d < 0.5) return 4;
  if (d <= 3) return 9;
  return -10;
}

function textLength(i: SeoInput): number {
  const n = words(plainText(i.content)).length;
  if (n >= 300) return 9;
  if (n >= 250) return 6;
  if (n >= 200) return 3;
  if (n >= 100) return -10;
  return -20;
}

function isInternal(href: string, home: string): boolean {
  if (href.startsWith('#')) return false;
  try {
    return new URL(href, `${home}/`).host === new URL(home).host;
  } catch {
    return false;
  }
}

function outboundLinks(i: SeoInput): number {
  const out = links(i.content).filter((l) => /^https?:/i.test(l.href) && !isInternal(l.href, i.home));
  if (out.length === 0) return 3;
  return out.every((l) => l.nofollow) ? 7 : 8;
}

function internalLinks(i: SeoInput): number {
  const inner = links(i.content).filter((l) => isInternal(l.href, i.home));
  if (inner.length === 0) return 3;
  return inner.every((l) => l.nofollow) ? 7 : 9;
}

function imageAltKeyphrase(i: SeoInput): number {
  const alts = imageAlts(i.content);
  if (alts.length === 0) return 3;
  if (alts.some((a) => hasAllWords(a, i.keyphrase))) return 9;
  return 6;
}

function keyphraseLength(i: SeoInput): number {
  const n = words(i.keyphrase).length;
  if (n >= 1 && n <= 4) return 9;
  if (n <= 8) return 6;
  return 3;
}

function titleWidth(i: SeoInput): number {
  const n = i.title.trim().length;
  if (n === 0) return 1;
  return n <= 60 ? 9 : 3;
}

const ASSESSMENTS: readonly [string, (i: SeoInput) => number][] = [
  ['keyphraseInTitle', keyphraseInTitle],
  ['slugKeyword', keyphraseInSlug],
  ['introductionKeyword', keyphraseInIntroduction],
  ['metaDescriptionLength', metaDescriptionLength],
  ['metaDescriptionKeyword', keyphraseInMetaDescription],
  ['keyphraseDensity', density],
  ['textLength', textLength],
  ['externalLinks', outboundLinks],
  ['internalLinks', internalLinks],
  ['imageKeyphrase', imageAltKeyphrase],
  ['keyphraseLength', keyphraseLength],
  ['titleWidth', titleWidth],
];

/** Every assessment's rating, and the overall SEO score (null without a keyphrase: not analysed). */
export function assessSeo(input: SeoInput): { score: number | null; assessments: Assessment[] } {
  if (words(input.keyphrase).length === 0) return { score: null, assessments: [] };
  const assessments = ASSESSMENTS.map(([id, f]) => ({ id, rating: f(input) }));
  return { score: Math.max(1, overallScore(assessments.map((a) => a.rating))), assessments };
}
