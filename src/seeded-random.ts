/**
 * @module seeded-random
 * A seeded pseudo-random generator (mulberry32): small, fast, and the same seed gives the same
 * numbers, in [0, 1). For the seeders' fake sites and the tests' reproducible faults and fuzz cases;
 * never for secrets.
 */
export type Rng = () => number;

export function seededRandom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
