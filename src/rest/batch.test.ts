import { describe, expect, it } from 'vitest';
import { RestError } from './errors.js';
import { buildTestCore, testUser } from './test-routes.case.js';

const editor = testUser(['edit_posts', 'delete_posts']);
const json = (data: unknown) => JSON.parse(JSON.stringify(data instanceof RestError ? data.toJSON() : data));

describe('POST /batch/v1', () => {
  it('runs items in order with the caller identity and answers 207', async () => {
    const { request } = buildTestCore();
    const res = await request({
      method: 'POST',
      route: '/batch/v1',
      json: { requests: [{ path: '/test/v1/notes', body: { title: 'a' } }, { path: '/test/v1/notes/1', method: 'PUT', body: { title: 'b' } }] },
      user: editor,
    });
    expect(res.status).toBe(207);
    const data = json(res.data);
    expect(data.responses).toHaveLength(2);
    expect(data.responses[0]).toMatchObject({ status: 201, body: { id: 1, title: 'a' }, headers: { Location: expect.any(String), Allow: 'GET, POST' } });
    // the second write sees the first
    expect(data.responses[1]).toMatchObject({ status: 200, body: { id: 1, title: 'b' } });
  });

  it('authorises each item on its own', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ path: '/test/v1/notes', body: { title: 'a' } }] } });
    expect(res.status).toBe(207);
    expect(json(res.data).responses[0]).toMatchObject({ status: 401, body: { code: 'rest_forbidden' } });
  });

  it('refuses routes that did not opt in, with Allow, and unknown routes without', async () => {
    const { request } = buildTestCore();
    const res = await request({
      method: 'POST',
      route: '/batch/v1',
      json: { requests: [{ path: '/test/v1/notes/1', method: 'DELETE' }, { path: '/nope' }] },
      user: editor,
    });
    const [notAllowed, noRoute] = json(res.data).responses;
    expect(notAllowed).toMatchObject({ status: 400, body: { code: 'rest_batch_not_allowed' }, headers: { Allow: 'GET, POST, PUT, PATCH, DELETE' } });
    expect(noRoute).toEqual({ status: 404, body: expect.objectContaining({ code: 'rest_no_route' }), headers: [] });
  });

  it('refuses a route that did not opt in before looking at its args', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ path: '/test/v1/notes/1?id=abc', method: 'DELETE' }] }, user: editor });
    expect(json(res.data).responses[0]).toMatchObject({ status: 400, body: { code: 'rest_batch_not_allowed' } });
  });

  it('in require-all-validate mode runs nothing when one item fails', async () => {
    const { request, notes } = buildTestCore();
    const res = await request({
      method: 'POST',
      route: '/batch/v1',
      json: { validation: 'require-all-validate', requests: [{ path: '/test/v1/notes', body: { title: 'a' } }, { path: '/test/v1/notes/1', body: { status: 'zzz' } }] },
      user: editor,
    });
    expect(res.status).toBe(207);
    const data = json(res.data);
    expect(data.failed).toBe('validation');
    expect(data.responses[0]).toBeNull();
    expect(data.responses[1]).toMatchObject({ status: 400, headers: [], body: { code: 'rest_invalid_param', data: { params: { status: expect.any(String) } } } });
    expect(notes.size).toBe(0);
  });

  it('in normal mode runs the valid items and reports the invalid ones', async () => {
    const { request, notes } = buildTestCore();
    const res = await request({
      method: 'POST',
      route: '/batch/v1',
      json: { requests: [{ path: '/test/v1/notes', body: {} }, { path: '/test/v1/notes', body: { title: 'ok' } }] },
      user: editor,
    });
    const data = json(res.data);
    expect(data.failed).toBeUndefined();
    expect(data.responses[0]).toMatchObject({ status: 400, body: { code: 'rest_missing_callback_param' } });
    expect(data.responses[1].status).toBe(201);
    expect(notes.size).toBe(1);
  });

  it('parses query strings of sub-request paths and applies their _fields', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ path: '/test/v1/notes?_fields=id&title=fromquery' }] }, user: editor });
    expect(json(res.data).responses[0]).toMatchObject({ status: 201, body: { id: 1 } });
    expect(json(res.data).responses[0].body.title).toBeUndefined();
  });

  it('answers parse_path_failed for an unparsable path, keeping items aligned', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ path: 'http://' }, { path: '/test/v1/notes', body: { title: 'x' } }] }, user: editor });
    const [bad, good] = json(res.data).responses;
    expect(bad).toMatchObject({ status: 400, body: { code: 'parse_path_failed' } });
    expect(good).toMatchObject({ status: 201, body: { title: 'x' } });
  });

  it('answers rest_no_route for a full URL or a path without its leading slash', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ path: 'http://x/wp-json/test/v1/notes', body: { title: 'x' } }, { path: 'test/v1/notes', body: { title: 'x' } }] }, user: editor });
    for (const item of json(res.data).responses) expect(item).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
  });

  it('rejects the whole batch with 400 above 25 requests, for GET items and for items without path', async () => {
    const { request } = buildTestCore();
    const many = Array.from({ length: 26 }, () => ({ path: '/test/v1/notes', body: { title: 'x' } }));
    const tooMany = await request({ method: 'POST', route: '/batch/v1', json: { requests: many }, user: editor });
    expect(tooMany.status).toBe(400);
    expect(json(tooMany.data)).toMatchObject({ code: 'rest_invalid_param', data: { details: { requests: { code: 'rest_too_many_items' } } } });
    const get = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ method: 'GET', path: '/test/v1/notes' }] }, user: editor });
    expect(get.status).toBe(400);
    const noPath = await request({ method: 'POST', route: '/batch/v1', json: { requests: [{ body: {} }] }, user: editor });
    expect(noPath.status).toBe(400);
  });

  it('accepts an empty list and requires requests', async () => {
    const { request } = buildTestCore();
    const empty = await request({ method: 'POST', route: '/batch/v1', json: { requests: [] } });
    expect(empty.status).toBe(207);
    expect(json(empty.data)).toEqual({ responses: [] });
    const missing = await request({ method: 'POST', route: '/batch/v1', json: {} });
    expect(json(missing.data).code).toBe('rest_missing_callback_param');
  });

  it('exactly 25 requests are accepted', async () => {
    const { request, notes } = buildTestCore();
    const items = Array.from({ length: 25 }, (_, i) => ({ path: '/test/v1/notes', body: { title: `n${i}` } }));
    const res = await request({ method: 'POST', route: '/batch/v1', json: { requests: items }, user: editor });
    expect(res.status).toBe(207);
    expect(notes.size).toBe(25);
  });
});
