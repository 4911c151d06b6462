/**
 * @module namespaces/events/terms.routes
 * Declarations of the event category and tag routes: collection (GET, POST), single (GET, updates,
 * DELETE) in the original's registration order.
 */
import type { AppContext } from '../../app-context.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteDef } from '../../rest/route.js';
import { CATEGORY_TAXONOMY, PUBLIC_READ_CACHE_MS, TAG_TAXONOMY } from './caps.js';
import { termArchiveArgs, termReadArgs, termWriteArgs } from './event-args.js';
import { termListChecks, termTargetChecks } from './checks.js';
import { withChecks } from '../../rest/checks.js';
import { endpoint } from '../../rest/typed.js';
import { itemSchema } from './schemas.js';
import {
  canChangeTerm, canCreateTerm, canListTerms, canReadTerm, createTermHandler, deleteTermHandler, getTermHandler, listTermsHandler,
  updateTermHandler,
} from './terms.handlers.js';

function termRoutes(kind: 'category' | 'tag'): RouteDef<AppContext>[] {
  const taxonomy = kind === 'category' ? CATEGORY_TAXONOMY : TAG_TAXONOMY;
  const base = kind === 'category' ? 'categories' : 'tags';
  const schema = itemSchema('Term', kind === 'category' ? 'event category' : 'event tag');
  return [
    {
      path: `/${base}`,
      schema,
      endpoints: [
        endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(termArchiveArgs(kind === 'category'), termListChecks(taxonomy)), permission: canListTerms(taxonomy), handler: listTermsHandler(taxonomy) }),
        endpoint({ methods: CREATABLE, allowBatch: true, args: termWriteArgs(kind, true), permission: canCreateTerm(taxonomy), handler: createTermHandler(taxonomy) }),
      ],
    },
    {
      path: `/${base}/{id:\\d+}`,
      schema,
      endpoints: [
        endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(termReadArgs(kind), termTargetChecks(taxonomy)), permission: canReadTerm(taxonomy), handler: getTermHandler(taxonomy) }),
        endpoint({ methods: EDITABLE, allowBatch: true, args: withChecks({ ...termReadArgs(kind), ...termWriteArgs(kind, false) }, termTargetChecks(taxonomy)), permission: canChangeTerm(taxonomy, 'edit_terms'), handler: updateTermHandler(taxonomy) }),
        endpoint({ methods: DELETABLE, allowBatch: true, args: withChecks(termReadArgs(kind), termTargetChecks(taxonomy)), permission: canChangeTerm(taxonomy, 'delete_terms'), handler: deleteTermHandler(taxonomy) }),
      ],
    },
  ];
}

/** The category routes. */
export const categoryRouteDefs = termRoutes('category');
/** The tag routes. */
export const tagRouteDefs = termRoutes('tag');
