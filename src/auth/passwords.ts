/**
 * @module auth/passwords
 * Sign-in passwords: scrypt with a random salt, parameters stored in the hash so they can be raised
 * later: `$scrypt$n=32768,r=8,p=1$<salt>$<key>` (base64url). Verification is constant-time and runs
 * in libuv's thread pool.
 */
import crypto from 'node:crypto';

/** The cost of new hashes (32 MiB of memory, tens of milliseconds of CPU each). */
export const DEFAULT_HASH_COST = 32_768;
let N = DEFAULT_HASH_COST;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Upper bound accepted when reading a stored hash, so a corrupted row cannot exhaust memory. */
const MAX_N = 1 << 20;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * TESTS ONLY (the vitest setup file): the cost of the hashes created from now on in this process.
 * Test suites create hundreds of users and each hash at the default cost takes tens of milliseconds;
 * verification reads the cost from the hash, so a cheaper hash is checked exactly as a real one.
 */
export function setHashCostForTests(n: number): void {
  if (!(n > 1 && n <= MAX_N && (n & (n - 1)) === 0)) throw new Error(`scrypt cost must be a power of two, got ${n}`);
  N = n;
}

/** A new hash of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return `$scrypt$n=${N},r=${R},p=${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const FORMAT = /^\$scrypt\$n=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/;

/** A hash no password matches, verified when a user is unknown so both paths take as long. */
const decoy = () => `$scrypt$n=${N},r=${R},p=${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/** True when `password` matches `hash`; false for an empty or unreadable hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const m = FORMAT.exec(hash);
  if (!m) return false;
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!(n > 1 && n <= MAX_N && (n & (n - 1)) === 0 && r >= 1 && r <= 32 && p >= 1 && p <= 16)) return false;
  const expected = Buffer.from(m[5]!, 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scrypt(password, Buffer.from(m[4]!, 'base64url'), n, r, p);
  return crypto.timingSafeEqual(actual, expected);
}

/** Spends the time of one verification (for unknown users). Always false. */
export async function verifyDecoy(password: string): Promise<false> {
  await verifyPassword(password, decoy());
  return false;
}
