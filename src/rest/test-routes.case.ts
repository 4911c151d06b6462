/**
 * A tiny in-memory namespace for testing the REST core without storage: notes that can be listed,
 * created, updated and deleted, some routes batchable, one admin-only.
 */
import { Dispatcher } from './dispatch.js';
import { Discovery, namespaceIndexRoute, siteIndexRoute } from './discovery.js';
import { batchRoute } from './batch.js';
import { Registry } from './registry.js';
import { createRestRequest, type RestRequestInit } from './request.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, defineRoutes, respond, type RestUser } from './route.js';
import { allowAll, requireCapability } from './permissions.js';
import { RestError } from './errors.js';

export function testUser(caps: string[] = []): RestUser {
  return { id: 1, login: 'u', email: 'u@example.test', displayName: 'U', roles: [], can: (c) => caps.includes(c) };
}

export function buildTestCore() {
  const notes = new Map<number, { id: number; title: string }>();
  let next = 1;
  let counter = 0;
  const ns = defineRoutes('test/v1', [
    {
      path: '/notes',
      endpoints: [
        {
          methods: READABLE,
          args: { per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100 } },
          permission: allowAll,
          handler: () => [...notes.values()],
        },
        {
          methods: CREATABLE,
          allowBatch: true,
          args: { title: { type: 'string', required: true } },
          permission: requireCapability('edit_posts'),
          handler: (req) => {
            const note = { id: next++, title: String(req.params.title), _links: { self: [{ href: `http://x/wp-json/test/v1/notes/${next - 1}` }] } };
            notes.set(note.id, note);
            return respond({ ...note }, { status: 201, headers: { Location: note._links.self[0]!.href } });
          },
        },
      ],
    },
    {
      path: '/notes/{id}',
      endpoints: [
        { methods: READABLE, args: { id: { type: 'integer', required: true } }, permission: allowAll, handler: (req) => notes.get(Number(req.params.id)) ?? new RestError('rest_note_invalid_id', 'Invalid note ID.', 404) },
        {
          methods: EDITABLE,
          allowBatch: true,
          args: { id: { type: 'integer', required: true }, title: { type: 'string' }, status: { type: 'string', enum: ['a', 'b'] } },
          permission: requireCapability('edit_posts'),
          handler: (req) => {
            const note = notes.get(Number(req.params.id));
            if (!note) throw new RestError('rest_note_invalid_id', 'Invalid note ID.', 404);
            if (req.has('title')) note.title = String(req.params.title);
            return { ...note };
          },
        },
        { methods: DELETABLE, args: { id: { type: 'integer', required: true } }, permission: requireCapability('delete_posts'), handler: (req) => ({ deleted: notes.delete(Number(req.params.id)) }) },
      ],
    },
    { path: '/counter', endpoints: [{ methods: READABLE, publicCacheMs: 60_000, permission: allowAll, handler: () => ({ n: ++counter }) }] },
    { path: '/boom', endpoints: [{ methods: READABLE, permission: allowAll, handler: () => { throw new Error('secret driver text'); } }] },
  ]);
  let dispatcher: Dispatcher | undefined;
  let discovery: Discovery | undefined;
  const registry = new Registry(
    [siteIndexRoute(() => discovery!, async () => ({ head: { name: 'T' }, authentication: [], tail: {} })), batchRoute(() => dispatcher!)],
    [ns],
    (n) => namespaceIndexRoute(n, () => discovery!),
  );
  discovery = new Discovery(registry, 'http://x/wp-json/');
  const errors: unknown[] = [];
  dispatcher = new Dispatcher(registry, {}, { error: (o) => errors.push(o) });
  const request = (init: RestRequestInit) => dispatcher!.dispatch(createRestRequest(init));
  return { registry, discovery, dispatcher, notes, errors, request };
}
