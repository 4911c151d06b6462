/**
 * @module namespaces/events/terms.handlers
 * Handlers and permissions of the event category and tag routes, with the WordPress terms
 * controller's semantics (`hide_empty` by default, `term_exists` on duplicates, hard deletes).
 */
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { createTerm, deleteTerm, getTerm, TermExistsError, updateTerm, type TermRecord } from '../../content/terms.js';
import { sanitizeTitle } from '../../content/slugs.js';
import { parseIdList, parseList } from '../../rest/php-query.js';
import { respond, type Permission, type RestRequest, type RestResponse } from '../../rest/route.js';
import { containsPattern, ilike, textOrder } from '../../storage/dialect.js';
import { can, canTerms, CATEGORY_TAXONOMY, EVENT_TYPE, type TermCapability } from './caps.js';
import { invalidParam } from '../../rest/errors.js';
import { eventError } from './errors.js';
import { CALENDAR_PAGING, type termArchiveArgs, type termReadArgs, type termWriteArgs } from './event-args.js';
import type { TypedRequest } from '../../rest/typed.js';

type ById = TypedRequest<ReturnType<typeof termReadArgs>>;
type Write = TypedRequest<ReturnType<typeof termWriteArgs>>;
import { EVENTS_NAMESPACE, presentTerm, termRouteBase } from './linked.present.js';
import { paginate, paginationHeaders, safeOffset, totalPages } from '../../rest/pagination.js';

/**
 * Writes need "edit events" (the era's rule) and the taxonomy's term capability (the newer rule), so
 * editors and up: contributors may assign terms to their events but not create or change them.
 */
function canWriteTerms(req: RestRequest, taxonomy: string, capability: TermCapability): boolean {
  return can(req.user, EVENT_TYPE, 'edit') && canTerms(req.user, taxonomy, capability);
}

export function canListTerms(_taxonomy: string): Permission<AppContext> {
  return () => true;
}

export function canReadTerm(_taxonomy: string): Permission<AppContext> {
  return () => true;
}

export function canCreateTerm(taxonomy: string): Permission<AppContext> {
  return (req) => canWriteTerms(req, taxonomy, 'manage_terms');
}

export function canChangeTerm(taxonomy: string, capability: 'edit_terms' | 'delete_terms'): Permission<AppContext> {
  return (req) => canWriteTerms(req, taxonomy, capability);
}

async function resolveParent(ctx: AppContext, taxonomy: string, req: RestRequest): Promise<number | undefined> {
  if (!req.has('parent')) return undefined;
  if (taxonomy !== CATEGORY_TAXONOMY) throw eventError('rest_taxonomy_not_hierarchical');
  const parent = Number(req.params.parent);
  if (parent === 0) return 0;
  if (!Number.isInteger(parent) || parent < 0 || !(await getTerm(ctx.db, taxonomy, parent))) throw eventError('rest_term_invalid');
  return parent;
}

function termExists(e: TermExistsError) {
  return eventError('term_exists', { term_id: e.termId });
}

export function getTermHandler(taxonomy: string) {
  return async (req: ById, ctx: AppContext) => {
    const term = await getTerm(ctx.db, taxonomy, req.params.id);
    if (!term) throw invalidParam('id');
    return presentTerm(ctx.urls, term);
  };
}

export function createTermHandler(taxonomy: string) {
  return async (req: Write, ctx: AppContext): Promise<RestResponse> => {
    const parent = await resolveParent(ctx, taxonomy, req);
    let term: TermRecord;
    try {
      term = await createTerm(ctx.db, taxonomy, {
        name: String(req.params.name),
        slug: req.params.slug,
        description: req.params.description ?? '',
        parent: parent ?? 0,
      });
    } catch (e) {
      if (e instanceof TermExistsError) throw termExists(e);
      throw e;
    }
    return respond(presentTerm(ctx.urls, term), { status: 201, headers: { Location: ctx.urls.rest(`${EVENTS_NAMESPACE}/${termRouteBase(taxonomy)}/${term.id}`) } });
  };
}

export function updateTermHandler(taxonomy: string) {
  return async (req: ById & Write, ctx: AppContext) => {
    const term = await getTerm(ctx.db, taxonomy, req.params.id);
    if (!term) throw invalidParam('id');
    const parent = await resolveParent(ctx, taxonomy, req);
    if (parent === term.id) throw eventError('rest_term_invalid');
    try {
      const updated = await updateTerm(ctx.db, term, {
        ...(req.params.name !== undefined ? { name: req.params.name } : {}),
        ...(req.params.slug !== undefined ? { slug: req.params.slug } : {}),
        ...(req.params.description !== undefined ? { description: req.params.description } : {}),
        ...(parent !== undefined ? { parent } : {}),
      });
      return presentTerm(ctx.urls, updated);
    } catch (e) {
      if (e instanceof TermExistsError) throw termExists(e);
      throw e;
    }
  };
}

export function deleteTermHandler(taxonomy: string) {
  return async (req: ById, ctx: AppContext) => {
    const term = await getTerm(ctx.db, taxonomy, req.params.id);
    if (!term) throw invalidParam('id');
    const data = presentTerm(ctx.urls, term);
    await ctx.db.transaction().execute((trx) => deleteTerm(trx, term));
    return data;
  };
}

const ORDERBY: Record<string, string> = { name: 'name', id: 'id', slug: 'slug', count: 'count', description: 'description', term_group: 'id', term_id: 'id', none: 'id', include: 'id', parent: 'parent' };

export function listTermsHandler(taxonomy: string) {
  return async (req: TypedRequest<ReturnType<typeof termArchiveArgs>>, ctx: AppContext): Promise<RestResponse> => {
    const p = req.params;
    const { page, perPage } = await paginate(req, ctx, CALENDAR_PAGING);
    const hideEmpty = req.has('hide_empty') ? p.hide_empty : true;
    const postId = p.event ?? p.post;

    let q = ctx.db.selectFrom('terms as t').where('t.taxonomy', '=', taxonomy);
    if (hideEmpty) q = q.where('t.count', '>', 0);
    if (p.search !== undefined) {
      const pattern = containsPattern(p.search);
      q = q.where((eb) => eb.or([ilike(ctx.db, eb.ref('t.name'), pattern), ilike(ctx.db, eb.ref('t.slug'), pattern)]));
    }
    // An empty list filters nothing, as `get_terms` ignores an empty `include`, `exclude` or `slug`
    // (and PostgreSQL refuses `IN ()`).
    const include = req.has('include') ? parseIdList(p.include) : [];
    if (include.length > 0) q = q.where('t.id', 'in', include);
    const exclude = req.has('exclude') ? parseIdList(p.exclude) : [];
    if (exclude.length > 0) q = q.where('t.id', 'not in', exclude);
    // `parent` is declared on categories only, so its type is not known here.
    if (req.has('parent') && taxonomy === CATEGORY_TAXONOMY) q = q.where('t.parent', '=', Number(p.parent));
    const slugs = req.has('slug') ? parseList(p.slug) : [];
    // CASE: `WP_Term_Query` sanitizes the slugs it is given, so `?slug=Music` finds `music`.
    if (slugs.length > 0) q = q.where('t.slug', 'in', slugs.map(sanitizeTitle));
    if (postId !== undefined) {
      q = q.where((eb) => eb.exists(ctx.db.selectFrom('term_relationships as tr').select(sql.lit(1).as('one')).where('tr.post_id', '=', postId).where('tr.term_id', '=', sql.ref<number>('t.id'))));
    }
    const countRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const total = Number(countRow?.n ?? 0);
    const column = ORDERBY[p.orderby ?? 'name'] ?? 'name';
    const direction = (p.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
    const rows = await q
      .selectAll('t')
      .orderBy(column === 'name' || column === 'description' ? textOrder(sql.ref(`t.${column}`)) : sql.ref(`t.${column}`), direction)
      .orderBy('t.id', direction)
      .limit(perPage)
      .offset(safeOffset((page - 1) * perPage))
      .execute();
    const items = rows.map((r) => presentTerm(ctx.urls, { ...r, id: Number(r.id), parent: Number(r.parent), count: Number(r.count) }));

    const base = `${ctx.urls.rest(`${EVENTS_NAMESPACE}/${termRouteBase(taxonomy)}`)}/`;
    const pages = totalPages({ total, perPage });
    const body: Record<string, unknown> = { rest_url: base, total, total_pages: pages, [termRouteBase(taxonomy)]: items };
    if (page < pages) body.next_rest_url = `${base}?page=${page + 1}`;
    // As Archive_Base::get_previous_rest_url: the page before the second is the collection URL itself.
    if (page > 1) body.previous_rest_url = page === 2 ? base : `${base}?page=${page - 1}`;
    const headers = { ...paginationHeaders(req, base.replace(/\/$/, ''), { total, page, perPage }), 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(pages) };
    return respond(body, { headers });
  };
}
