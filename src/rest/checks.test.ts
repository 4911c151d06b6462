import { describe, expect, it } from 'vitest';
import { Dispatcher } from './dispatch.js';
import { RestError } from './errors.js';
import { loadOnce } from './locals.js';
import { paginate, paginationArgs, type PaginationOptions } from './pagination.js';
import { Registry } from './registry.js';
import { createRestRequest, type RestRequestInit } from './request.js';
import { defineRoutes, READABLE, EDITABLE, type ArgCheck } from './route.js';
import { withChecks } from './checks.js';

declare module './route.js' {
  interface RequestLocals {
    note?: { id: number; title: string } | undefined;
  }
}

const notes = new Map([[1, { id: 1, title: 'one' }]]);
const log: string[] = [];

const noteExists: ArgCheck = async (value, req) => {
  log.push(`check id=${String(value)}`);
  const note = await loadOnce(req, 'note', async () => notes.get(Number(value)));
  if (note) return true;
  if (Number(value) > 1000) throw new RestError('rest_note_invalid_id', 'Invalid note ID.', 404);
  return false;
};

const PAGING: PaginationOptions = { perPage: 5, max: 20, setting: 'notes_per_page' };
const CLAMPED: PaginationOptions = { perPage: 5, max: 20, clamp: true };

function core(settings: Record<string, unknown> = {}) {
  log.length = 0;
  const ctx = { options: { get: async (name: string, fallback?: unknown) => (name in settings ? settings[name] : fallback) } };
  const ns = defineRoutes('t/v1', [
    {
      path: '/notes/{id:\\d+}',
      endpoints: [
        {
          methods: EDITABLE,
          args: withChecks(
            { id: { type: 'integer', required: true }, title: { type: 'string', minLength: 2 }, author: { type: 'integer' } },
            { id: noteExists, author: async (v) => (Number(v) === 7 ? true : 'No such author.') },
          ),
          permission: (req) => {
            log.push(`permission note=${req.locals.note?.id}`);
            return true;
          },
          handler: (req) => {
            log.push('handler');
            return { id: req.locals.note!.id, title: req.params.title };
          },
        },
      ],
    },
    {
      path: '/list',
      endpoints: [
        { methods: READABLE, args: paginationArgs(PAGING), permission: () => true, handler: async (req) => paginate(req, ctx, PAGING) },
      ],
    },
    {
      path: '/clamped',
      endpoints: [
        { methods: READABLE, args: paginationArgs(CLAMPED), permission: () => true, handler: async (req) => paginate(req, ctx, CLAMPED) },
      ],
    },
  ]);
  const d = new Dispatcher(new Registry([], [ns], () => ({ path: '/', endpoints: [] })), ctx, { error: () => undefined });
  return async (init: RestRequestInit) => {
    const res = await d.dispatch(createRestRequest(init));
    return { status: res.status, body: res.data instanceof RestError ? res.data.toJSON() : (res.data as any) };
  };
}

describe('argument checks (ArgSchema.check)', () => {
  it('run after validation and before the permission, and hand what they load to the handler', async () => {
    const request = core();
    const res = await request({ method: 'POST', route: '/t/v1/notes/1', body: { title: 'hello', author: '7' } });
    expect(res).toEqual({ status: 200, body: { id: 1, title: 'hello' } });
    // (the permission runs again for the `Allow` header)
    expect(log.slice(0, 3)).toEqual(['check id=1', 'permission note=1', 'handler']);
  });

  it('collect every failing parameter, validation and checks alike, in arg order; no handler runs', async () => {
    const request = core();
    const res = await request({ method: 'POST', route: '/t/v1/notes/2', body: { title: 'x', author: '3' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id, title, author',
      data: {
        status: 400,
        params: { id: 'Invalid parameter.', title: 'title must be at least 2 characters long.', author: 'No such author.' },
        details: {
          title: { code: 'rest_too_short', message: 'title must be at least 2 characters long.', data: null },
          author: { code: 'rest_invalid_param', message: 'No such author.', data: null },
        },
      },
    });
    expect(log).toEqual(['check id=2', 'permission note=undefined']); // the second: the `Allow` header
  });

  it('do not run for an arg that failed validation, and a thrown error ends the request at once', async () => {
    const request = core();
    const bad = await request({ method: 'POST', route: '/t/v1/notes/1', body: { author: 'abc' } });
    expect(bad.body.data.params).toEqual({ author: 'author is not of type integer.' });
    const thrown = await request({ method: 'POST', route: '/t/v1/notes/5000', body: { author: '3' } });
    expect(thrown).toMatchObject({ status: 404, body: { code: 'rest_note_invalid_id' } });
  });
});

describe('pagination helper', () => {
  it('declares WordPress bounds (400 outside them) or positive integers clamped to max', () => {
    expect(paginationArgs(PAGING).per_page).toEqual({
      description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 5, minimum: 1, maximum: 20,
    });
    const clamped = paginationArgs(CLAMPED).per_page;
    expect(Object.keys(clamped)).toEqual(['default', 'description', 'type', 'validate', 'sanitize']);
  });

  it('takes the client value, else the site setting (bounded), else the declared default; bounds once', async () => {
    const request = core({ notes_per_page: 8 });
    expect((await request({ method: 'GET', route: '/t/v1/list' })).body).toEqual({ page: 1, perPage: 8, offset: 0 });
    expect((await request({ method: 'GET', route: '/t/v1/list', query: { per_page: '3', page: '2' } })).body).toEqual({ page: 2, perPage: 3, offset: 3 });
    expect((await request({ method: 'GET', route: '/t/v1/list', query: { per_page: '21' } })).status).toBe(400);
    expect((await request({ method: 'GET', route: '/t/v1/list', query: { page: '0' } })).status).toBe(400);
    expect((await core({ notes_per_page: 500 })({ method: 'GET', route: '/t/v1/list' })).body.perPage).toBe(20);
    expect((await core({ notes_per_page: 'x' })({ method: 'GET', route: '/t/v1/list' })).body.perPage).toBe(5);
    expect((await core()({ method: 'GET', route: '/t/v1/list' })).body.perPage).toBe(5);
  });

  it('clamps only where asked: larger sizes become max, zero or words are invalid', async () => {
    const request = core();
    expect((await request({ method: 'GET', route: '/t/v1/clamped', query: { per_page: '500' } })).body.perPage).toBe(20);
    expect((await request({ method: 'GET', route: '/t/v1/clamped' })).body.perPage).toBe(5);
    const zero = await request({ method: 'GET', route: '/t/v1/clamped', query: { per_page: '0', page: 'x' } });
    expect(zero.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { page: 'Invalid parameter.', per_page: 'Invalid parameter.' } } });
  });
});
