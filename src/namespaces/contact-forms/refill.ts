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

/** The original's `wpcf7_canonicalize`: lower case, full-width forms folded, trimmed. */
export function canonicalAnswer(answer: string): string {
  return answer.normalize('NFKC').toLowerCase().trim();
}

export function quizAnswerHash(ctx: AppContext, answer: string): Promise<string> {
  return keyedHash(ctx, 'wpcf7_quiz', canonicalAnswer(answer));
}

/** `[]` for ordinary forms; `{quiz: {name: [question, answer hash]}}` for quiz forms. */
export async function refill(ctx: AppContext, form: ContactForm): Promise<unknown> {
  const quizzes = scanFormTags(form.form).filter((t) => t.basetype === 'quiz' && t.pipes.length > 0);
  if (quizzes.length === 0) return [];
  const quiz: Record<string, [string, string]> = {};
  for (const tag of quizzes) {
    const [question, answer] = tag.pipes[crypto.randomInt(tag.pipes.length)]!;
    quiz[tag.name] = [question, await quizAnswerHash(ctx, answer)];
  }
  return { quiz };
}
