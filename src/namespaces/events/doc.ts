/**
 * @module namespaces/events/doc
 * `GET /doc`: the namespace's OpenAPI 3.0.0 document in the original's form (key order `openapi, info,
 * components, servers, paths`): the configuration of `rest/openapi.ts`'s namespace document (parameters
 * from each endpoint's args, form-encoded request bodies for writes) plus the responses by kind of route.
 */
import type { AppContext } from '../../app-context.js';
import { allowAll } from '../../rest/permissions.js';
import { namespaceDocument, type NamespaceDocOptions } from '../../rest/openapi.js';
import { READABLE, type NamespaceRoutes, type RouteDef } from '../../rest/route.js';
import { EVENT_DOC_SCHEMAS } from './schemas.js';

const TITLE = 'The Events Calendar REST API';
const DESCRIPTION = 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.';

const RESOURCES: Record<string, { item: string; schema: string; plural: string }> = {
  events: { item: 'event', schema: 'Event', plural: 'events' },
  venues: { item: 'venue', schema: 'Venue', plural: 'venues' },
  organizers: { item: 'organizer', schema: 'Organizer', plural: 'organizers' },
  categories: { item: 'event category', schema: 'Term', plural: 'event categories' },
  tags: { item: 'event tag', schema: 'Term', plural: 'event tags' },
};

function responses(method: string, kind: 'doc' | 'collection' | 'single', resource: { item: string; schema: string; plural: string } | undefined): Record<string, unknown> {
  if (kind === 'doc' || !resource) {
    return { '200': { description: 'Returns the documentation for The Events Calendar REST API in Swagger consumable format.' } };
  }
  const ref = { $ref: `#/components/schemas/${resource.schema}` };
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  if (kind === 'collection' && method === 'get') {
    return {
      '200': { description: `Returns all the ${resource.plural} matching the search criteria`, content: json({ title: resource.plural, type: 'array', items: ref }) },
      '400': { description: 'One or more of the specified query variables has a bad format' },
      '404': { description: 'The requested page was not found.' },
    };
  }
  if (kind === 'collection') {
    return {
      '201': { description: `Returns the data of the created ${resource.item}`, content: json(ref) },
      '400': { description: 'A required parameter is missing or an input parameter is in the wrong format' },
      '403': { description: `The user is not authorized to create ${resource.plural}` },
    };
  }
  switch (method) {
    case 'get':
      return {
        '200': { description: `Returns the data of the ${resource.item} with the specified ID`, content: json(ref) },
        '400': { description: `The ${resource.item} ID is missing or invalid.` },
        '403': { description: `The ${resource.item} with the specified ID is not accessible.` },
        '404': { description: `A ${resource.item} with the specified ID does not exist.` },
      };
    case 'delete':
      return {
        '200': { description: `Deletes the ${resource.item} and returns its data`, content: json(ref) },
        '400': { description: `The ${resource.item} ID is missing or does not exist.` },
        '403': { description: `The current user cannot delete the ${resource.item} with the specified ID.` },
        '410': { description: `The ${resource.item} with the specified ID has been deleted already.` },
        '500': { description: `The ${resource.item} with the specified ID could not be deleted.` },
      };
    default:
      return {
        '200': { description: `Returns the data of the updated ${resource.item}`, content: json(ref) },
        '400': { description: 'A required parameter is missing or an input parameter is in the wrong format' },
        '403': { description: `The user is not authorized to update ${resource.plural}` },
      };
  }
}

/** The calendar's `/doc`: how the generic namespace document is written for it. */
function eventsDocOptions(serverUrl: string): NamespaceDocOptions {
  return {
    info: { version: '1.0.0', title: TITLE, description: DESCRIPTION },
    serverUrl,
    schemas: EVENT_DOC_SCHEMAS,
    componentsFirst: true,
    schema: { keys: ['type', 'format', 'items', 'enum', 'default'], singleType: 'string', skipNullDefault: true },
    isList: (arg) => arg.type === 'array',
    noDescription: '',
    responses: (path, method, vars) => {
      const segment = path.split('/')[1] ?? '';
      return responses(method, segment === 'doc' ? 'doc' : vars.size === 0 ? 'collection' : 'single', RESOURCES[segment]);
    },
  };
}

/**
 * The OpenAPI document of a namespace's routes; `serverUrl` is the namespace root (scheme, host and path),
 * `now` the app clock's time (clock-dependent defaults are shown as of then).
 */
export function buildEventsDocument(ns: NamespaceRoutes, serverUrl: string, now: Date): Record<string, unknown> {
  return namespaceDocument(ns.routes, eventsDocOptions(serverUrl), now);
}

/** The `/doc` route; `routes` returns the namespace (this route included) once it is defined. */
export function docRoute(routes: () => NamespaceRoutes): RouteDef<AppContext> {
  let cache: { root: string; doc: Record<string, unknown> } | undefined;
  return {
    path: '/doc',
    endpoints: [
      {
        methods: READABLE,
        args: {},
        permission: allowAll,
        handler: (_req, ctx: AppContext) => {
          const ns = routes();
          const root = ctx.urls.rest(`${ns.namespace}/`);
          if (cache?.root !== root) {
            cache = { root, doc: buildEventsDocument(ns, root, ctx.now()) };
          }
          return cache.doc;
        },
      },
    ],
  };
}
