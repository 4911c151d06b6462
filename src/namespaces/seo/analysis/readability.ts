/**
 * @module namespaces/seo/analysis/readability
 * Readability assessments, each rated 0–9 with the original's boundaries: Flesch reading ease,
 * sentence length, paragraph length, passive voice, transition words, subheading distribution and
 * consecutive sentences starting alike; plus the estimated reading time.
 */
import { overallScore } from './ranks.js';
import { paragraphs, plainText, sections, sentences, syllables, words } from './text.js';

/** Flesch reading ease of a text (English formula). */
export function fleschReadingEase(text: string): number {
  const sents = sentences(text);
  const ws = words(text);
  if (sents.length === 0 || ws.length === 0) return 0;
  const syl = ws.reduce((n, w) => n + syllables(w), 0);
  const score = 206.835 - 1.015 * (ws.length / sents.length) - 84.6 * (syl / ws.length);
  return Math.round(score * 10) / 10;
}

const TRANSITIONS = [
  'accordingly', 'additionally', 'afterward', 'afterwards', 'also', 'although', 'besides', 'because', 'but',
  'consequently', 'conversely', 'finally', 'first', 'firstly', 'furthermore', 'hence', 'however', 'indeed',
  'instead', 'likewise', 'meanwhile', 'moreover', 'nevertheless', 'next', 'nonetheless', 'otherwise',
  'second', 'secondly', 'similarly', 'since', 'so', 'still', 'then', 'therefore', 'thus', 'while', 'yet',
  'for example', 'for instance', 'in addition', 'in conclusion', 'in contrast', 'in fact', 'in short',
  'on the other hand', 'as a result', 'after all', 'above all', 'at the same time', 'to summarize', 'in other words',
];

/** True when the sentence uses a transition word or phrase. */
export function hasTransition(sentence: string): boolean {
  const text = ` ${words(sentence).join(' ')} `;
  return TRANSITIONS.some((t) => text.includes(` ${t} `));
}

const IRREGULAR_PARTICIPLES = new Set([
  'born', 'built', 'bought', 'brought', 'caught', 'chosen', 'done', 'drawn', 'driven', 'eaten', 'found', 'given',
  'gone', 'grown', 'held', 'hidden', 'kept', 'known', 'laid', 'led', 'left', 'lost', 'made', 'meant', 'met', 'paid',
  'put', 'read', 'run', 'said', 'seen', 'sent', 'set', 'shown', 'sold', 'spent', 'spoken', 'taken', 'taught',
  'thought', 'told', 'understood', 'won', 'written', 'hit', 'cut', 'beaten', 'broken', 'forgotten', 'frozen', 'stolen',
]);
const AUXILIARIES = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', "isn't", "aren't", "wasn't", "weren't", 'get', 'gets', 'got', 'gotten']);
const NOT_PARTICIPLES = new Set(['need', 'feed', 'seed', 'speed', 'bed', 'red', 'shed', 'bred', 'sled', 'wed']);

function isParticiple(word: string): boolean {
  if (IRREGULAR_PARTICIPLES.has(word)) return true;
  return word.length > 3 && word.endsWith('ed') && !NOT_PARTICIPLES.has(word);
}

/** True when the sentence has a passive construction: a form of "be"/"get", maybe an adverb, then a participle. */
export function isPassive(sentence: string): boolean {
  const ws = words(sentence);
  for (let i = 0; i < ws.length - 1; i++) {
    if (!AUXILIARIES.has(ws[i]!)) continue;
    const next = ws[i + 1]!;
    if (isParticiple(next)) return true;
    if ((next.endsWith('ly') || next === 'not') && i + 2 < ws.length && isParticiple(ws[i + 2]!)) return true;
  }
  return false;
}

function rateFlesch(text: string): number {
  const fre = fleschReadingEase(text);
  if (fre >= 60) return 9;
  if (fre >= 50) return 6;
  return 3;
}

function rateSentenceLength(sents: string[]): number {
  const long = sents.filter((s) => words(s).length > 20).length;
  const share = (long / sents.length) * 100;
  if (share <= 25) return 9;
  if (share <= 30) return 6;
  return 3;
}

function rateParagraphLength(html: string): number {
  const longest = Math.max(0, ...paragraphs(html).map((p) => words(p).length));
  if (longest <= 150) return 9;
  if (longest <= 200) return 6;
  return 3;
}

function ratePassive(sents: string[]): number {
  const share = (sents.filter(isPassive).length / sents.length) * 100;
  if (share <= 10) return 9;
  if (share <= 15) return 6;
  return 3;
}

function rateTransitions(sents: string[]): number {
  const share = (sents.filter(hasTransition).length / sents.length) * 100;
  if (share >= 30) return 9;
  if (share >= 20) return 6;
  return 3;
}

function rateSubheadings(html: string, totalWords: number): number {
  const secs = sections(html);
  const hasHeadings = secs.some((s) => s.heading !== null);
  if (!hasHeadings) return totalWords > 300 ? 2 : 9;
  const longest = Math.max(0, ...secs.map((s) => words(s.text).length));
  if (longest <= 300) return 9;
  if (longest <= 350) return 6;
  return 3;
}

function rateSentenceBeginnings(sents: string[]): number {
  let run = 1;
  for (let i = 1; i < sents.length; i++) {
    run = words(sents[i]!)[0] === words(sents[i - 1]!)[0] ? run + 1 : 1;
    if (run >= 3) return 3;
  }
  return 9;
}

export interface ReadabilityResult {
  /** 0 for an empty text. */
  score: number;
  /** Estimated reading time in minutes (0 for an empty text). */
  readingTime: number;
  fleschReadingEase: number;
  assessments: { id: string; rating: number }[];
}

/** Words per minute of the reading-time estimate. */
export const WORDS_PER_MINUTE = 200;

export function assessReadability(html: string): ReadabilityResult {
  const text = plainText(html);
  const totalWords = words(text).length;
  const sents = sentences(text);
  if (totalWords === 0 || sents.length === 0) return { score: 0, readingTime: 0, fleschReadingEase: 0, assessments: [] };
  const assessments = [
    { id: 'fleschReadingEase', rating: rateFlesch(text) },
    { id: 'sentenceLength', rating: rateSentenceLength(sents) },
    { id: 'paragraphLength', rating: rateParagraphLength(html) },
    { id: 'passiveVoice', rating: ratePassive(sents) },
    { id: 'transitionWords', rating: rateTransitions(sents) },
    { id: 'subheadingsDistribution', rating: rateSubheadings(html, totalWords) },
    { id: 'sentenceBeginnings', rating: rateSentenceBeginnings(sents) },
  ];
  return {
    score: overallScore(assessments.map((a) => a.rating)),
    readingTime: Math.ceil(totalWords / WORDS_PER_MINUTE),
    fleschReadingEase: fleschReadingEase(text),
    assessments,
  };
}
