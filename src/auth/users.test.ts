import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';
import { TEST_HASH_COST } from '../test-support/vitest-setup.js';
import { DEFAULT_HASH_COST, hashPassword, setHashCostForTests, verifyPassword } from './passwords.js';
import { createUser, findUserByEmail, findUserByLogin, findUserRowForSignIn, getUser, isEmail } from './users.js';

// The setup file lowers the cost of test hashes; this file checks the production one.
beforeAll(() => setHashCostForTests(DEFAULT_HASH_COST));
afterAll(() => setHashCostForTests(TEST_HASH_COST));

describe.each(DIALECTS)('users on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('creates a user with a scrypt password hash and a slug', async () => {
    const u = await createUser(t.ctx, { login: 'Ada.Lovelace', email: 'ada@example.test', password: 'analytical', roles: ['editor'], displayName: 'Ada' });
    expect(u).toEqual({ id: u.id, login: 'Ada.Lovelace', email: 'ada@example.test', displayName: 'Ada', roles: ['editor'] });
    const row = await findUserRowForSignIn(t.ctx, 'ada.lovelace');
    expect(row?.password_hash).toMatch(/^\$scrypt\$n=32768,r=8,p=1\$/);
    expect(await verifyPassword('analytical', row!.password_hash)).toBe(true);
    expect(await verifyPassword('Analytical', row!.password_hash)).toBe(false);
    const user = await getUser(t.ctx, u.id);
    expect(user?.nicename).toBe('ada-lovelace');
    expect(user?.can('edit_others_posts')).toBe(true);
    expect(user?.can('manage_options')).toBe(false);
  });

  it('finds users by login and e-mail case-insensitively', async () => {
    expect((await findUserByLogin(t.ctx, 'ADA.LOVELACE'))?.email).toBe('ada@example.test');
    expect((await findUserByEmail(t.ctx, 'ADA@example.test'))?.login).toBe('Ada.Lovelace');
    expect(await findUserByLogin(t.ctx, 'nobody')).toBeUndefined();
    expect((await findUserRowForSignIn(t.ctx, 'Ada@Example.test'))?.login).toBe('Ada.Lovelace');
  });

  it('refuses duplicate logins and e-mail addresses, case-insensitively', async () => {
    await expect(createUser(t.ctx, { login: 'ada.lovelace', email: 'other@example.test', roles: [] })).rejects.toMatchObject({ code: 'existing_user_login', status: 400 });
    await expect(createUser(t.ctx, { login: 'someone', email: 'ADA@EXAMPLE.TEST', roles: [] })).rejects.toMatchObject({ code: 'existing_user_email', status: 400 });
  });

  it('gives distinct slugs to logins that slug alike', async () => {
    const a = await createUser(t.ctx, { login: 'ada lovelace', email: 'ada2@example.test', roles: [] });
    expect((await getUser(t.ctx, a.id))?.nicename).toBe('ada-lovelace-2');
  });

  it.each([
    [{ login: '', email: 'e1@example.test', roles: [] }, 'empty_user_login'],
    [{ login: 'x'.repeat(61), email: 'e2@example.test', roles: [] }, 'user_login_too_long'],
    [{ login: 'bad|name', email: 'e3@example.test', roles: [] }, 'rest_user_invalid_username'],
    [{ login: 'bad:name', email: 'e3@example.test', roles: [] }, 'rest_user_invalid_username'],
    [{ login: 'okname', email: 'not-an-email', roles: [] }, 'rest_user_invalid_email'],
    [{ login: 'okname', email: 'okname@example.test', roles: ['pirate'] }, 'rest_user_invalid_role'],
  ])('refuses %j with %s', async (input, code) => {
    await expect(createUser(t.ctx, input)).rejects.toMatchObject({ code, status: 400 });
  });

  it('creates users without a sign-in password', async () => {
    const u = await createUser(t.ctx, { login: 'nopass', email: 'nopass@example.test', roles: ['subscriber'] });
    expect((await findUserRowForSignIn(t.ctx, 'nopass'))?.password_hash).toBe('');
    expect((await getUser(t.ctx, u.id))?.can('read')).toBe(true);
  });
});

describe('isEmail (WordPress is_email)', () => {
  it.each([
    ['a@b.co', true],
    ['ada@example.test', true],
    ["o'hara+x@mail.example.org", true],
    ['a@b.c', false],
    ['@example.test', false],
    ['ada@', false],
    ['ada@localhost', false],
    ['ada@exa..mple.test', false],
    ['ada@-example.test', false],
    ['ada lovelace@example.test', false],
  ])('%s → %s', (value, expected) => {
    expect(isEmail(value)).toBe(expected);
  });
});

describe('scrypt hashes', () => {
  it('salts every hash and refuses malformed ones', async () => {
    const [a, b] = [await hashPassword('same'), await hashPassword('same')];
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', b)).toBe(true);
    expect(await verifyPassword('same', '')).toBe(false);
    expect(await verifyPassword('same', '$scrypt$n=3,r=8,p=1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('same', a.replace('n=32768', 'n=4194304'))).toBe(false);
  });
});
