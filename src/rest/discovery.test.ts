import { describe, expect, it, vi } from 'vitest';
import { Discovery, VOLATILE_DEFAULTS_TTL_MS } from './discovery.js';
import { allowAll } from './permissions.js';
import { Registry } from './registry.js';
import { READABLE, defineRoutes } from './route.js';

describe('Discovery with computed defaults', () => {
  it('rebuilds its documents once they are older than the TTL', () => {
    let today = 'day-1';
    const since = Object.defineProperty({ type: 'string' }, 'default', { get: () => today, enumerable: true });
    const ns = defineRoutes('dyn/v1', [{ path: '/x', endpoints: [{ methods: READABLE, args: { since }, permission: allowAll, handler: () => 1 }] }]);
    const registry = new Registry([], [ns], (n) => ({ path: '', endpoints: [{ methods: READABLE, permission: allowAll, handler: () => n }] }));
    vi.useFakeTimers();
    try {
      const d = new Discovery(registry, 'http://x/wp-json/');
      expect(d.routesText('dyn/v1', false)).toContain('day-1');
      today = 'day-2';
      expect(d.routesText('dyn/v1', false)).toContain('day-1'); // cached
      vi.advanceTimersByTime(VOLATILE_DEFAULTS_TTL_MS + 1);
      expect(d.routesText('dyn/v1', false)).toContain('day-2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps documents without computed defaults for the life of the registry', () => {
    const ns = defineRoutes('fixed/v1', [{ path: '/x', endpoints: [{ methods: READABLE, args: { a: { type: 'string', default: 'v' } }, permission: allowAll, handler: () => 1 }] }]);
    const registry = new Registry([], [ns], (n) => ({ path: '', endpoints: [{ methods: READABLE, permission: allowAll, handler: () => n }] }));
    vi.useFakeTimers();
    try {
      const d = new Discovery(registry, 'http://x/wp-json/');
      const first = d.routesText(undefined, false);
      vi.advanceTimersByTime(VOLATILE_DEFAULTS_TTL_MS * 10);
      expect(d.routesText(undefined, false)).toBe(first);
      expect(d.stamp).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
