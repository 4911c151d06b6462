import { describe, expect, it } from 'vitest';
import { renderContent } from '../../content/posts.js';
import { RENDERED_MAX_CHARS, renderLinkedContent, renderedMemoSize } from './linked.present.js';

describe('renderLinkedContent', () => {
  it('renders as renderContent does, and keeps at most its bound of characters', () => {
    const filler = 'A venue by the river. '.repeat(500);
    for (let i = 0; i < 2_000; i++) expect(renderLinkedContent(`${filler}${i}`)).toBe(renderContent(`${filler}${i}`));
    expect(renderedMemoSize().chars).toBeLessThanOrEqual(RENDERED_MAX_CHARS);
    expect(renderedMemoSize().entries).toBeGreaterThan(50);
  });
});
