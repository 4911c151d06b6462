/**
 * @module test-support/vitest-setup
 * Runs before each test file (vitest `setupFiles`). Sign-in password hashes made by tests use a low
 * scrypt cost: suites create hundreds of users, and at the production cost each hash takes tens of
 * milliseconds of CPU. Verification reads the cost from the stored hash, so sign-in is checked the
 * same way; `src/auth/users.test.ts` puts the production cost back to check it.
 */
import { setHashCostForTests } from '../auth/passwords.js';

export const TEST_HASH_COST = 1024;

setHashCostForTests(TEST_HASH_COST);
