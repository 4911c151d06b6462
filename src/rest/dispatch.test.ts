import { describe, expect, it } from 'vitest';
import { RestError } from './errors.js';
import { buildTestCore, testUser } from './test-routes.case.js';

const body = (data: unknown) => (data instanceof RestError ? data.toJSON() : data) as any;

describe('Dispatcher', () => {
  it('answers 404 rest_no_route for an unknown path and for a wrong verb', async () => {
    const { request } = buildTestCore();
    expect(body((await request({ method: 'GET', route: '/nope' })).data).code).toBe('rest_no_route');
    const wrongVerb = await request({ method: 'PUT', route: '/test/v1/notes' });
    expect(wrongVerb.status).toBe(404);
    expect(body(wrongVerb.data).code).toBe('rest_no_route');
  });

  it('matches case-insensitively and puts path captures in params', async () => {
    const { request, notes } = buildTestCore();
    notes.set(7, { id: 7, title: 'seven' });
    const res = await request({ method: 'GET', route: '/TEST/v1/notes/7' });
    expect(res.status).toBe(200);
    expect(body(res.data)).toEqual({ id: 7, title: 'seven' });
  });

  it('lets the query beat the path capture', async () => {
    const { request, notes } = buildTestCore();
    notes.set(5, { id: 5, title: 'five' });
    notes.set(7, { id: 7, title: 'seven' });
    const res = await request({ method: 'GET', route: '/test/v1/notes/5', query: { id: '7' } });
    expect(body(res.data).id).toBe(7);
  });

  it('validates before checking permission (anonymous bad input gets 400, not 401)', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/test/v1/notes', body: {} });
    expect(res.status).toBe(400);
    expect(body(res.data)).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['title'] } });
  });

  it('answers 401 signed out and 403 signed in when permission is refused', async () => {
    const { request } = buildTestCore();
    const anon = await request({ method: 'POST', route: '/test/v1/notes', body: { title: 'x' } });
    expect(anon.status).toBe(401);
    expect(body(anon.data).code).toBe('rest_forbidden');
    const user = await request({ method: 'POST', route: '/test/v1/notes', body: { title: 'x' }, user: testUser([]) });
    expect(user.status).toBe(403);
  });

  it('treats JSON null as absent', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/test/v1/notes', json: { title: null }, user: testUser(['edit_posts']) });
    expect(body(res.data).code).toBe('rest_missing_callback_param');
  });

  it('gives JSON precedence over form over query', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'POST', route: '/test/v1/notes', query: { title: 'q' }, body: { title: 'f' }, json: { title: 'j' }, user: testUser(['edit_posts']) });
    expect(body(res.data).title).toBe('j');
    const form = await request({ method: 'POST', route: '/test/v1/notes', query: { title: 'q' }, body: { title: 'f' }, user: testUser(['edit_posts']) });
    expect(body(form.data).title).toBe('f');
  });

  it('ignores form bodies on GET', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'GET', route: '/test/v1/notes', body: { per_page: '0' } });
    expect(res.status).toBe(200);
  });

  it('raises rest_invalid_json only for a matched route with a JSON content type', async () => {
    const { request } = buildTestCore();
    const bad = await request({ method: 'POST', route: '/test/v1/notes', rawBody: '{nope', headers: { 'content-type': 'application/json; charset=utf-8' }, user: testUser(['edit_posts']) });
    expect(bad.status).toBe(400);
    expect(body(bad.data).code).toBe('rest_invalid_json');
    const unknown = await request({ method: 'POST', route: '/nope', rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(body(unknown.data).code).toBe('rest_no_route');
    const notJson = await request({ method: 'POST', route: '/test/v1/notes', rawBody: '{nope', headers: { 'content-type': 'text/plain' }, user: testUser(['edit_posts']) });
    expect(body(notJson.data).code).toBe('rest_missing_callback_param');
  });

  it('turns a thrown non-RestError into a generic 500 without leaking its message', async () => {
    const { request, errors } = buildTestCore();
    const res = await request({ method: 'GET', route: '/test/v1/boom' });
    expect(res.status).toBe(500);
    expect(JSON.stringify(body(res.data))).not.toContain('secret');
    expect(errors).toHaveLength(1);
  });

  it('sends Allow with only the methods the caller may use', async () => {
    const { request, notes } = buildTestCore();
    notes.set(1, { id: 1, title: 'one' });
    const anon = await request({ method: 'GET', route: '/test/v1/notes/1' });
    expect(anon.headers.Allow).toBe('GET');
    const editor = await request({ method: 'GET', route: '/test/v1/notes/1', user: testUser(['edit_posts', 'delete_posts']) });
    expect(editor.headers.Allow).toBe('GET, POST, PUT, PATCH, DELETE');
  });

  it('reuses signed-out answers of routes that opt in, until a write', async () => {
    const { request } = buildTestCore();
    const read = async (init: Partial<Parameters<typeof request>[0]> = {}) => {
      const res = await request({ method: 'GET', route: '/test/v1/counter', ...init });
      const data = res.data as any;
      return (typeof data?.value === 'function' ? data.value() : data).n as number;
    };
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    expect(await read({ query: { a: '1' } })).toBe(2); // another query is another answer
    expect(await read({ user: testUser([]) })).toBe(3); // signed-in callers are never served from it
    expect(await read({ rawBody: '{"password":"x"}', headers: { 'content-type': 'application/json' } })).toBe(4); // nor requests with a body
    expect(await read({ rawBody: '{"password":"x"}', headers: { 'content-type': 'application/json' } })).toBe(5);
    await request({ method: 'POST', route: '/test/v1/notes', body: { title: 'x' }, user: testUser(['edit_posts']) });
    expect(await read()).toBe(6); // a write starts afresh
  });

  it('serves namespace indexes, also through ?namespace=', async () => {
    const { request } = buildTestCore();
    const res = await request({ method: 'GET', route: '/test/v1' });
    const data = JSON.parse((res.data as any).text);
    expect(data.namespace).toBe('test/v1');
    expect(Object.keys(data.routes)).toEqual(['/test/v1', '/test/v1/notes', '/test/v1/notes/(?P<id>[\\d]+)', '/test/v1/counter', '/test/v1/boom']);
    expect(data._links.up[0].href).toBe('http://x/wp-json/');
    const other = await request({ method: 'GET', route: '/test/v1', query: { namespace: 'nope/v1' } });
    expect(other.status).toBe(404);
    expect(body(other.data).code).toBe('rest_invalid_namespace');
  });
});
