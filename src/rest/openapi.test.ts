import { describe, expect, it } from 'vitest';
import { docPath, namespaceDocument, type NamespaceDocOptions } from './openapi.js';
import { CREATABLE, READABLE, type RouteDef } from './route.js';

const ok = () => true;
const ROUTES: RouteDef[] = [
  {
    path: '/things',
    endpoints: [
      { methods: READABLE, args: { tags: { type: 'array', items: { type: 'integer' }, description: 'Tags.' }, since: { type: 'string', defaultAt: () => 'then' } }, permission: ok, handler: ok },
      { methods: CREATABLE, args: { name: { type: 'string', required: true, description: 'Name.' }, note: { type: 'string', default: null } }, permission: ok, handler: ok },
    ],
  },
  {
    path: '/things/{id:\\d+}',
    endpoints: [
      { methods: READABLE, args: { id: { type: 'integer', description: 'ID.' } }, permission: ok, handler: ok },
      { methods: CREATABLE, args: { id: { type: 'integer' } }, permission: ok, handler: ok, showInIndex: false },
    ],
  },
];

function options(over: Partial<NamespaceDocOptions> = {}): NamespaceDocOptions {
  return {
    info: { version: '1', title: 'T', description: 'D' },
    serverUrl: 'example.test/t',
    schemas: { Thing: { type: 'object' } },
    componentsFirst: true,
    schema: { keys: ['type', 'items', 'default'], singleType: 'string', skipNullDefault: true },
    isList: (arg) => arg.type === 'array',
    noDescription: '',
    responses: (path, method, vars) => ({ '200': { description: `${method} ${path} ${vars.size}` } }),
    ...over,
  };
}

describe('namespaceDocument', () => {
  it('writes parameters, form bodies and responses from the declarations, without hidden endpoints', () => {
    const doc = namespaceDocument(ROUTES, options(), new Date()) as any;
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(Object.keys(doc.paths)).toEqual(['/things', '/things/{id}']);
    expect(doc.paths['/things'].get.parameters).toEqual([
      { name: 'tags', in: 'query', description: 'Tags.', schema: { type: 'array', items: { type: 'integer' } }, required: false, style: 'form', explode: false },
      { name: 'since', in: 'query', description: '', schema: { type: 'string', default: 'then' }, required: false },
    ]);
    expect(doc.paths['/things'].post).toEqual({
      requestBody: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: { type: 'object', properties: { name: { type: 'string', description: 'Name.' }, note: { type: 'string', description: '' } }, required: ['name'] },
          },
        },
      },
      responses: { '200': { description: 'post /things 0' } },
    });
    expect(Object.keys(doc.paths['/things/{id}'])).toEqual(['get']);
    expect(doc.paths['/things/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
  });

  it('follows the configured path list, key order and schema style', () => {
    const doc = namespaceDocument(
      ROUTES,
      options({ componentsFirst: false, paths: ['/things/{id:\\d+}'], schema: { keys: ['default', 'type'] }, noDescription: 'None', bodyDescriptionIfAny: true }),
      new Date(),
    ) as any;
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'servers', 'paths', 'components']);
    expect(Object.keys(doc.paths)).toEqual(['/things/{id}']);
    expect(namespaceDocument(ROUTES, options({ schema: { keys: ['default', 'type'] } }), new Date())).toMatchObject({
      paths: { '/things': { post: { requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { properties: { note: { default: null, type: 'string' } } } } } } } } },
    });
  });

  it('names path variables without their patterns', () => {
    expect(docPath('/a/{id:\\d+}/b/{slug:[a-z]{2,}}')).toEqual({ path: '/a/{id}/b/{slug}', vars: new Set(['id', 'slug']) });
  });
});
