import { describe, expect, it } from 'vitest';
import { overallScore, readabilityRank, seoRank } from './ranks.js';
import { assessReadability, fleschReadingEase, hasTransition, isPassive } from './readability.js';
import { assessSeo, keyphraseDensity } from './seo-assessor.js';
import { sentences, syllables } from './text.js';

const HOME = 'https://example.test';

describe('ranks', () => {
  it.each([[null, 'na'], [0, 'na'], [1, 'bad'], [40, 'bad'], [41, 'ok'], [70, 'ok'], [71, 'good'], [100, 'good']] as const)('SEO score %s is %s', (score, rank) => {
    expect(seoRank(score)).toBe(rank);
  });

  it('readability 0 is bad with a reading time and not analysed without one', () => {
    expect(readabilityRank(0, 2)).toBe('bad');
    expect(readabilityRank(0, 0)).toBe('na');
    expect(readabilityRank(80, 1)).toBe('good');
  });

  it('overall score is the share of the best possible ratings', () => {
    expect(overallScore([9, 9, 9])).toBe(100);
    expect(overallScore([9, 3, 3])).toBe(56);
    expect(overallScore([-10, 3])).toBe(0);
  });
});

describe('text primitives', () => {
  it('counts syllables of English words', () => {
    expect(['cat', 'table', 'beautiful', 'event', 'harbour'].map(syllables)).toEqual([1, 2, 3, 2, 2]);
  });

  it('splits sentences', () => {
    expect(sentences('The band plays. Tickets sell fast! Will you come? Yes.')).toHaveLength(4);
  });

  it('Flesch reading ease: short plain sentences score high, long Latinate ones low', () => {
    expect(fleschReadingEase('The cat sat on the mat. The dog ran to the park. We had fun.')).toBeGreaterThan(90);
    expect(fleschReadingEase('Notwithstanding considerable organisational complexity, international collaboration necessitates comprehensive institutional accountability mechanisms.')).toBeLessThan(0);
  });

  it('finds passive voice and transition words', () => {
    expect(isPassive('The concert was cancelled by the organizers.')).toBe(true);
    expect(isPassive('The tickets were quickly sold.')).toBe(true);
    expect(isPassive('The organizers cancelled the concert.')).toBe(false);
    expect(hasTransition('However, the doors open early.')).toBe(true);
    expect(hasTransition('For example, bring a coat.')).toBe(true);
    expect(hasTransition('The doors open early.')).toBe(false);
  });
});

function article(keyphrase: string, words: number): string {
  const filler = 'The harbour stage hosts local bands every summer night and the crowd sings along with them. ';
  const body = Array.from({ length: Math.ceil(words / 17) }, (_, i) => (i % 6 === 0 ? `However, ${keyphrase} fans love it. ` : filler)).join('');
  return `<p>Welcome to the ${keyphrase} festival on the harbour. ${body.slice(0, 600)}</p><h2>Programme</h2><p>${body}</p>`
    + `<p><a href="${HOME}/event/other/">more events</a> and <a href="https://elsewhere.example/">the city guide</a>.</p>`
    + `<p><img src="${HOME}/wp-content/uploads/a.jpg" alt="${keyphrase} crowd"></p>`;
}

describe('SEO assessor', () => {
  it('is not analysed without a focus keyphrase', () => {
    expect(assessSeo({ keyphrase: '', title: 'T', slug: 't', content: '<p>x</p>', metaDescription: '', home: HOME }).score).toBeNull();
  });

  it('rates a well-optimised page good and a bare one bad', () => {
    const good = assessSeo({
      keyphrase: 'harbour jazz',
      title: 'Harbour jazz festival 2026',
      slug: 'harbour-jazz-festival',
      content: article('harbour jazz', 400),
      metaDescription: 'Harbour jazz on the quay: three nights of local and touring bands, food stalls and late ferries home. Tickets and programme inside.',
      home: HOME,
    });
    expect(good.score).toBeGreaterThanOrEqual(71);
    const bad = assessSeo({ keyphrase: 'harbour jazz', title: 'Summer', slug: 'summer', content: '<p>Come along.</p>', metaDescription: '', home: HOME });
    expect(seoRank(bad.score)).toBe('bad');
    expect(Object.fromEntries(bad.assessments.map((a) => [a.id, a.rating]))).toMatchObject({ keyphraseInTitle: 2, slugKeyword: 3, metaDescriptionLength: 1, imageKeyphrase: 3 });
  });

  it('computes keyphrase density per word', () => {
    expect(keyphraseDensity('jazz on the harbour and more jazz here', 'jazz')).toBeCloseTo(25);
  });
});

describe('readability assessor', () => {
  it('an empty text is not analysed (score 0, no reading time)', () => {
    expect(assessReadability('')).toMatchObject({ score: 0, readingTime: 0 });
  });

  it('scores plain, varied text higher than one long passive block', () => {
    const plain = assessReadability(article('harbour jazz', 300));
    const block = assessReadability(`<p>${'The programme was designed by the committee and the venue was chosen by the council after lengthy deliberations concerning accessibility requirements. '.repeat(30)}</p>`);
    expect(plain.score).toBeGreaterThan(block.score);
    expect(plain.readingTime).toBeGreaterThan(0);
    expect(Object.fromEntries(block.assessments.map((a) => [a.id, a.rating]))).toMatchObject({ passiveVoice: 3, paragraphLength: 3, subheadingsDistribution: 2, sentenceBeginnings: 3 });
  });
});
