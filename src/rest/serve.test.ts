import { describe, expect, it } from 'vitest';
import { RestError } from './errors.js';
import { JsonText, RawBody } from './json-text.js';
import { RestResponse } from './route.js';
import { serveResponse, type ServeOptions } from './serve.js';

const post = {
  id: 5,
  title: 'Gala',
  _links: {
    self: [{ href: 'http://x/wp-json/test/v1/notes/5' }],
    author: [{ embeddable: true, href: 'http://x/wp-json/core/v2/users/1' }],
    'https://api.w.org/term': [
      { taxonomy: 'category', embeddable: true, href: 'http://x/wp-json/test/v1/terms?post=5' },
      { taxonomy: 'tag', href: 'http://x/wp-json/test/v1/tags?post=5' },
    ],
  },
};

function opts(query: Record<string, unknown>, fetched: string[] = []): ServeOptions {
  return {
    query,
    head: false,
    apiRoot: 'http://x/wp-json/',
    embed: async (href) => {
      fetched.push(href);
      return href.includes('users') ? { id: 1, name: 'Ada' } : [{ id: 9, name: 'Music' }];
    },
  };
}

const body = async (res: RestResponse, query: Record<string, unknown>, fetched?: string[]) =>
  JSON.parse(String((await serveResponse(res, opts(query, fetched))).body));

describe('serveResponse', () => {
  it('compacts api.w.org relations into wp: CURIEs', async () => {
    const out = await body(new RestResponse(post), {});
    expect(Object.keys(out._links)).toEqual(['self', 'author', 'wp:term', 'curies']);
    expect(out._links.curies).toEqual([{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }]);
  });

  it('embeds every embeddable link, parallel to _links, with [] for the others', async () => {
    const fetched: string[] = [];
    const out = await body(new RestResponse([post, post]), { _embed: '1' }, fetched);
    expect(out[0]._embedded.author).toEqual([{ id: 1, name: 'Ada' }]);
    expect(out[0]._embedded['wp:term']).toEqual([[{ id: 9, name: 'Music' }], []]);
    expect(out[0]._embedded.self).toBeUndefined();
    // each href is fetched once per response
    expect(fetched).toHaveLength(2);
  });

  it('embeds only the selected relations', async () => {
    const out = await body(new RestResponse(post), { _embed: 'author' });
    expect(Object.keys(out._embedded)).toEqual(['author']);
  });

  it('keeps _links whole when _fields names _links or _embedded (links are not filtered data)', async () => {
    const out = await body(new RestResponse(post), { _fields: 'id,_embedded' });
    expect(Object.keys(out)).toEqual(['id', '_links']);
    expect(Object.keys(out._links)).toEqual(['self', 'author', 'wp:term', 'curies']);
    const self = await body(new RestResponse(post), { _fields: '_links.self' });
    expect(Object.keys(self._links)).toEqual(['self', 'author', 'wp:term', 'curies']);
    const embedded = await body(new RestResponse(post), { _fields: 'title,_embedded', _embed: '1' });
    expect(Object.keys(embedded)).toEqual(['title', '_links', '_embedded']);
    // list items carry their links as data, filtered like the rest
    const list = await body(new RestResponse([post]), { _fields: 'id,_embedded' });
    expect(list).toEqual([{ id: 5 }]);
    const listSelf = await body(new RestResponse([post]), { _fields: '_links.self' });
    expect(listSelf).toEqual([{ _links: { self: post._links.self } }]);
  });

  it('applies _fields before links and never to errors', async () => {
    expect(await body(new RestResponse(post), { _fields: 'id,title' })).toEqual({ id: 5, title: 'Gala' });
    const err = await body(new RestResponse(new RestError('x_bad', 'Bad', 400), 400), { _fields: 'id' });
    expect(err).toEqual({ code: 'x_bad', message: 'Bad', data: { status: 400 } });
  });

  it('wraps in _envelope with the real status and headers', async () => {
    const wire = await serveResponse(new RestResponse({ a: 1 }, 201, { Location: 'http://x/1' }), opts({ _envelope: '' }));
    expect(wire.status).toBe(200);
    expect(wire.headers.Location).toBeUndefined();
    expect(JSON.parse(String(wire.body))).toEqual({ body: { a: 1 }, status: 201, headers: { Location: 'http://x/1' } });
  });

  it('writes an empty header map of an envelope as [] and envelopes 204 and null answers too', async () => {
    const noHeaders = await serveResponse(new RestResponse({ a: 1 }, 404), opts({ _envelope: '1' }));
    expect(JSON.parse(String(noHeaders.body))).toEqual({ body: { a: 1 }, status: 404, headers: [] });
    const empty = await serveResponse(new RestResponse(null, 204), opts({ _envelope: '' }));
    expect(empty.status).toBe(200);
    expect(JSON.parse(String(empty.body))).toEqual({ body: null, status: 204, headers: [] });
  });

  it('uses _jsonp only when it is PHP-truthy, and refuses a bad callback as JavaScript', async () => {
    for (const value of ['', '0']) {
      const wire = await serveResponse(new RestResponse({ a: 1 }), opts({ _jsonp: value }));
      expect(wire.status, value).toBe(200);
      expect(wire.headers['Content-Type'], value).toBe('application/json; charset=UTF-8');
      expect(wire.body, value).toBe('{"a":1}');
    }
    const wrapped = await serveResponse(new RestResponse({ a: 1 }), opts({ _jsonp: 'cb' }));
    expect(wrapped.body).toBe('/**/cb({"a":1})');
    expect((await serveResponse(new RestResponse(null, 204), opts({ _jsonp: 'cb' }))).body).toBeUndefined();
    for (const value of ['a-b', ['cb']]) {
      const bad = await serveResponse(new RestResponse({ a: 1 }), opts({ _jsonp: value }));
      expect(bad.status).toBe(400);
      expect(bad.headers['Content-Type']).toBe('application/javascript; charset=UTF-8');
      expect(JSON.parse(String(bad.body))).toEqual({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
    }
  });

  it('sends no body for 204, null data and HEAD', async () => {
    expect((await serveResponse(new RestResponse(null, 200), opts({}))).body).toBeUndefined();
    expect((await serveResponse(new RestResponse({ a: 1 }, 204), opts({}))).body).toBeUndefined();
    expect((await serveResponse(new RestResponse({ a: 1 }), { ...opts({}), head: true })).body).toBeUndefined();
  });

  it('serves pre-encoded documents as bytes, and decodes them only when shaping is asked', async () => {
    const doc = new JsonText('{"a":1,"b":2}', () => ({ a: 1, b: 2 }));
    const fast = await serveResponse(new RestResponse(doc), opts({}));
    expect(Buffer.isBuffer(fast.body)).toBe(true);
    expect(await body(new RestResponse(doc), { _fields: 'b' })).toEqual({ b: 2 });
  });

  it('passes raw bodies through with their content type', async () => {
    const wire = await serveResponse(new RestResponse(new RawBody('text/xml; charset=UTF-8', '<oembed/>')), opts({ _fields: 'x' }));
    expect(wire.headers['Content-Type']).toBe('text/xml; charset=UTF-8');
    expect(wire.body).toBe('<oembed/>');
  });

  it('pretty-prints with _pretty', async () => {
    const wire = await serveResponse(new RestResponse({ a: 1 }), opts({ _pretty: '' }));
    expect(wire.body).toBe('{\n    "a": 1\n}');
  });
});
