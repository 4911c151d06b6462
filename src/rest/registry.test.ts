import { describe, expect, it } from 'vitest';
import { Registry, RouteDeclarationError } from './registry.js';
import { READABLE, defineRoutes, type RouteDef } from './route.js';
import { allowAll } from './permissions.js';

const index = (ns: string): RouteDef => ({ path: '', endpoints: [{ methods: READABLE, permission: allowAll, handler: () => ns }] });
const build = (routes: RouteDef[]) => new Registry([], [defineRoutes('x/v1', routes)], index);

describe('Registry boot checks', () => {
  it('derives WordPress keys, fixed-ness and the index route', () => {
    const r = build([{ path: '/a/{id}', endpoints: [{ methods: READABLE, args: { id: { type: 'integer' } }, permission: allowAll, handler: () => 1 }] }]);
    expect(r.routes.map((x) => x.key)).toEqual(['/x/v1', '/x/v1/a/(?P<id>[\\d]+)']);
    expect(r.routes.map((x) => x.fixed)).toEqual([true, false]);
  });

  it('accepts inline patterns', () => {
    const r = build([{ path: '/u/{user_id:(?:[\\d]+|me)}', endpoints: [{ methods: READABLE, args: { user_id: {} }, permission: allowAll, handler: () => 1 }] }]);
    expect(r.routes[1]!.key).toBe('/x/v1/u/(?P<user_id>(?:[\\d]+|me))');
    expect(r.match('/x/v1/u/me', 'GET')?.urlParams).toEqual({ user_id: 'me' });
    expect(r.match('/x/v1/u/12', 'GET')?.urlParams).toEqual({ user_id: '12' });
    expect(r.match('/x/v1/u/abc', 'GET')).toBeUndefined();
  });

  const bad: [string, RouteDef][] = [
    ['duplicate method', { path: '/a', endpoints: [{ methods: READABLE, permission: allowAll, handler: () => 1 }, { methods: READABLE, permission: allowAll, handler: () => 1 }] }],
    ['missing permission', { path: '/a', endpoints: [{ methods: READABLE, handler: () => 1 } as never] }],
    ['missing handler', { path: '/a', endpoints: [{ methods: READABLE, permission: allowAll } as never] }],
    ['unknown arg type', { path: '/a', endpoints: [{ methods: READABLE, args: { a: { type: 'int' } }, permission: allowAll, handler: () => 1 }] }],
    ['path variable without arg', { path: '/a/{id}', endpoints: [{ methods: READABLE, permission: allowAll, handler: () => 1 }] }],
    ['default outside enum', { path: '/a', endpoints: [{ methods: READABLE, args: { a: { type: 'string', enum: ['x'], default: 'y' } }, permission: allowAll, handler: () => 1 }] }],
    ['default out of range', { path: '/a', endpoints: [{ methods: READABLE, args: { a: { type: 'integer', minimum: 1, default: 0 } }, permission: allowAll, handler: () => 1 }] }],
    ['unknown path variable', { path: '/a/{nope}', endpoints: [{ methods: READABLE, args: { nope: {} }, permission: allowAll, handler: () => 1 }] }],
  ];
  it.each(bad)('throws at boot for %s', (_name, route) => {
    expect(() => build([route])).toThrow(RouteDeclarationError);
  });

  it('matches a path no namespace prefixes against core routes and regex-named namespaces only, in registration order', () => {
    const ep = { methods: READABLE, permission: allowAll, handler: () => 1 };
    const core: RouteDef = { path: '/batch/v1', endpoints: [ep] };
    const r = new Registry([core], [defineRoutes('x/v1', [{ path: '/a', endpoints: [ep] }]), defineRoutes('oembed/1.0', [{ path: '/embed', endpoints: [ep] }])], index);
    expect(r.match('/BATCH/v1', 'GET')?.route.key).toBe('/batch/v1');
    // The dot of `1.0` matches any character, as WordPress's regex does.
    expect(r.match('/oembed/1x0/embed', 'GET')?.route.key).toBe('/oembed/1.0/embed');
    expect(r.match('/X/V1/a', 'GET')?.route.key).toBe('/x/v1/a');
    expect(r.match('/y/v1/a', 'GET')).toBeUndefined();
  });

  it('is frozen after boot', () => {
    const r = build([]);
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.routes)).toBe(true);
  });
});
