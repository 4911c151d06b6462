/**
 * @module namespaces/contact-forms/refill
 * Quiz support: `refill` hands the browser one question per quiz tag with the keyed hash of its
 * canonical answer; a submission's answer must hash to the same value.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { scanFormTags } from './form-tags.js';
import type { ContactForm } from './forms.repo.js';
import { keyedHash } from './secret.js';

/** The original's `wpcf7_canonicalize` with `strip_separators`: full-width forms folded, spaces, tabs and line breaks removed, lower case. */
export function canonicalAnswer(answer: string): string {
  return answer.normalize('NFKC').replace(/[\r\n\t ]+/g, '').toLowerCase();
}

/** The question a quiz tag without any asks. */
const DEFAULT_QUIZ: [string, string] = ['1+1=?', '2'];

export function quizAnswerHash(ctx: AppContext, answer: string): Promise<string> {
  return keyedHash(ctx, 'wpcf7_quiz', canonicalAnswer(answer));
}

/**
 * `[]` for ordinary forms; `{quiz: {name: [question, answer hash]}}` for quiz forms, a fresh random
 * question per tag. The feedback answer carries the same `quiz` key so the browser can ask anew.
 */
export async function refill(ctx: AppContext, form: ContactForm): Promise<[] | { quiz: Record<string, [string, string]> }> {
  const quizzes = scanFormTags(form.form).filter((t) => t.basetype === 'quiz');
  if (quizzes.length === 0) return [];
  const quiz: Record<string, [string, string]> = {};
  for (const tag of quizzes) {
    const [question, answer] = tag.pipes.length > 0 ? tag.pipes[crypto.randomInt(tag.pipes.length)]! : DEFAULT_QUIZ;
    quiz[tag.name] = [question, await quizAnswerHash(ctx, answer)];
  }
  return { quiz };
}
