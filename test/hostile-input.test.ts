/**
 * No input crashes the process or answers 500 (or 501/504): every declared route, every method, odd values for
 * every declared argument, signed out and as an administrator, on every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../src/test-support/harness.js';

const ODD_VALUES: unknown[] = ['abc', '-1', '0', '99999999999999999999', '1.5', '', ' ', 'true', '2025-13-45 25:61:61', '<script>x</script>', 'é🎉', '%00', 'x'.repeat(5000), [], ['a', 'b'], { a: { b: 'c' } }, null, 1e308, -2147483649];

/** A concrete path for a discovery key: each variable gets a value of its own pattern. */
function concrete(key: string, id: string): string {
  return key.replace(/\(\?P<([^>]+)>(?:[^()]|\((?:[^()])*\))+\)/g, (_m, name: string) => (name === 'user_id' ? 'me' : name === 'slug' || name.endsWith('_id') && name !== 'user_id' ? 'some-thing' : id));
}

describe.each(DIALECTS)('hostile input on %s', (engine) => {
  let t: TestApp;
  let routes: [string, any][];
  beforeAll(async () => {
    t = await startTestApp(engine);
    routes = Object.entries((await t.request('GET', '/')).body.routes);
  });
  afterAll(() => t.close());

  it('never answers 500, whatever the arguments', async () => {
    const failures: string[] = [];
    for (const [key, route] of routes) {
      for (const ep of route.endpoints as { methods: string[]; args: Record<string, unknown> | [] }[]) {
        const names = Array.isArray(ep.args) ? [] : Object.keys(ep.args);
        for (const method of ep.methods) {
          for (const [i, value] of ODD_VALUES.entries()) {
            const path = concrete(key, i % 2 ? '999999999999' : '1');
            const params = Object.fromEntries(names.map((n) => [n, value]));
            for (const as of [null, t.admin]) {
              const res = method === 'GET' || method === 'DELETE'
                ? await t.app.inject({ method: method as never, url: `/wp-json${path}?${new URLSearchParams(names.map((n) => [n, typeof value === 'string' ? value : JSON.stringify(value)])).toString()}`, headers: as ? { authorization: as.authorization } : {} })
                : await t.app.inject({ method: method as never, url: `/wp-json${path}`, headers: { 'content-type': 'application/json', ...(as ? { authorization: as.authorization } : {}) }, payload: JSON.stringify(params) });
              // 502/503 say a remote service is unreachable or not configured: the server's state, not the input.
              if (res.statusCode >= 500 && res.statusCode !== 502 && res.statusCode !== 503) failures.push(`${method} ${path} ${as ? 'admin' : 'anon'} ${JSON.stringify(value).slice(0, 40)} → ${res.statusCode} ${res.body.slice(0, 160)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
