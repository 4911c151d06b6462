import { describe, expect, it } from 'vitest';
import { Discovery } from './discovery.js';
import { Dispatcher } from './dispatch.js';
import { openApiDocument } from './openapi.js';
import { Registry } from './registry.js';
import { createRestRequest } from './request.js';
import { defineRoutes, READABLE } from './route.js';

/** A route whose `since` defaults to the day before "now" and whose `at` is relative to "now". */
function setup(now: () => Date) {
  const ns = defineRoutes('t/v1', [
    {
      path: '/items',
      endpoints: [
        {
          methods: READABLE,
          args: {
            since: { description: 'Since.', defaultAt: (at: Date) => new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10), type: 'string' },
            at: {
              type: 'string',
              validate: (v, _req, _name, at) => typeof v === 'string' && (v === 'now' || /^\d{4}-/.test(v)) && at instanceof Date,
              sanitize: (v, _req, _name, at) => (v === 'now' ? at.toISOString() : v),
            },
          },
          permission: () => true,
          handler: (req) => ({ since: req.params.since, at: req.params.at ?? null, supplied: req.has('since') }),
        },
      ],
    },
  ]);
  const registry = new Registry([], [ns], () => ({ path: '/', endpoints: [] }));
  return { registry, dispatcher: new Dispatcher(registry, {}, { error: () => undefined }, undefined, undefined, now), discovery: new Discovery(registry, 'http://x.test/wp-json/', now) };
}

describe('clock-dependent arg defaults (ArgSchema.defaultAt)', () => {
  it('fill an absent arg from the dispatcher clock, and relative values see the same time', async () => {
    let clock = new Date('2030-05-10T12:00:00Z');
    const { dispatcher } = setup(() => clock);
    const get = async (query: Record<string, unknown>) => (await dispatcher.dispatch(createRestRequest({ method: 'GET', route: '/t/v1/items', query }))).data;
    expect(await get({ at: 'now' })).toEqual({ since: '2030-05-09', at: '2030-05-10T12:00:00.000Z', supplied: false });
    clock = new Date('2031-01-01T00:00:00Z');
    expect(await get({})).toEqual({ since: '2030-12-31', at: null, supplied: false });
    expect(await get({ since: '2001-01-01' })).toEqual({ since: '2001-01-01', at: null, supplied: true });
  });

  it('are shown as `default`, in their place among the keys, at the clock of the document build', () => {
    const now = () => new Date('2030-05-10T12:00:00Z');
    const { discovery, registry } = setup(now);
    const args = (discovery.routes('t/v1', false)['/t/v1/items'] as any).endpoints[0].args;
    expect(JSON.stringify(args.since)).toBe('{"description":"Since.","default":"2030-05-09","type":"string","required":false}');
    const doc = openApiDocument(registry, 'http://x.test/wp-json/', { title: 't', version: '1' }, now()) as any;
    expect(doc.paths['/t/v1/items'].get.parameters[0].schema).toEqual({ description: 'Since.', default: '2030-05-09', type: 'string' });
  });

  it('age discovery documents with the app clock', () => {
    let clock = new Date('2030-05-10T12:00:00Z');
    const { discovery } = setup(() => clock);
    const since = () => (discovery.routes('t/v1', false)['/t/v1/items'] as any).endpoints[0].args.since.default;
    expect(since()).toBe('2030-05-09');
    clock = new Date('2030-05-20T12:00:00Z');
    expect(since()).toBe('2030-05-19');
  });
});
