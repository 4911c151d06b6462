/**
 * @module namespaces/seo/analysis/text
 * Text primitives of the analysis: HTML to paragraphs, sentences and words, syllable counts, links
 * and images. English rules, as the original's default researcher.
 */

/** Decodes the few entities content carries. */
function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)));
}

/** Text without tags, scripts or styles. */
export function plainText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Paragraphs: `<p>` blocks, or blocks separated by blank lines when the content has no `<p>`. */
export function paragraphs(html: string): string[] {
  const blocks = /<p[\s>]/i.test(html)
    ? [...html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/gi)].map((m) => m[1]!)
    : html.replace(/<h[1-6][^>]*>[\s\S]*?<\/h[1-6]>/gi, '\n\n').split(/\n\s*\n/);
  return blocks.map(plainText).filter((p) => p !== '');
}

/** Sentences of a text: split after `.`, `!`, `?` or `…` followed by space and a capital or digit. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+(?=["'“‘(]?[A-Z0-9])/)
    .map((s) => s.trim())
    .filter((s) => words(s).length > 0);
}

/** Words, lower-cased, without punctuation. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []);
}

/** English syllable estimate per word (vowel groups, silent final e, -le endings). */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w === '') return 0;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').replace(/^y/, '');
  const groups = trimmed.match(/[aeiouy]+/g);
  return Math.max(1, groups ? groups.length : 1);
}

/** Links of the content: href and whether `rel` has nofollow. */
export function links(html: string): { href: string; nofollow: boolean }[] {
  return [...html.matchAll(/<a\s[^>]*>/gi)].flatMap((m) => {
    const tag = m[0];
    const href = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    if (!href) return [];
    const rel = /\srel\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    return [{ href: decodeEntities(href[1] ?? href[2] ?? href[3] ?? ''), nofollow: /nofollow/i.test(rel?.[1] ?? rel?.[2] ?? '') }];
  });
}

/** Alt texts of the content's images ('' for images without one). */
export function imageAlts(html: string): string[] {
  return [...html.matchAll(/<img\s[^>]*>/gi)].map((m) => {
    const alt = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(m[0]);
    return decodeEntities(alt?.[1] ?? alt?.[2] ?? '');
  });
}

/** Subheadings (h2–h6) and the text between them. */
export function sections(html: string): { heading: string | null; text: string }[] {
  const parts = html.split(/(<h[2-6][^>]*>[\s\S]*?<\/h[2-6]>)/i);
  const out: { heading: string | null; text: string }[] = [{ heading: null, text: '' }];
  for (const part of parts) {
    if (/^<h[2-6]/i.test(part)) out.push({ heading: plainText(part), text: '' });
    else out[out.length - 1]!.text += ` ${plainText(part)}`;
  }
  return out.map((s) => ({ heading: s.heading, text: s.text.trim() }));
}

/** Occurrences of the keyphrase (as a phrase) in a text. */
export function countPhrase(text: string, phrase: string): number {
  const hay = words(text);
  const needle = words(phrase);
  if (needle.length === 0) return 0;
  let n = 0;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    if (needle.every((w, j) => hay[i + j] === w)) n++;
  }
  return n;
}

/** True when every word of the keyphrase occurs in the text (any order). */
export function hasAllWords(text: string, phrase: string): boolean {
  const hay = new Set(words(text));
  const needle = words(phrase);
  return needle.length > 0 && needle.every((w) => hay.has(w));
}
