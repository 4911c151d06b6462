/**
 * @module namespaces/tickets/tickets.routes
 * `/tickets` and `/tickets/{id}`: the public ticket archive and single reads (ET
 * `REST/V1/Endpoints/Ticket_Archive.php`, `Single_Ticket.php`) and the block editor's writes (ET
 * `Editor/REST/V1/Endpoints/Single_Ticket.php`), whose permission callbacks always pass: the real
 * check is a nonce plus "edit posts" of the ticket's post type, answered with 403 `forbidden`.
 */
import type { AppContext } from '../../app-context.js';
import { getPost } from '../../content/posts.js';
import { sanitizeTextField } from '../../rest/wp-sanitize.js';
import { allowAll } from '../../rest/permissions.js';
import { defineArgs, endpoint, type TypedRequest } from '../../rest/typed.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, respond, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canEditTicketsOf, hasManageAccess } from './access.js';
import { clampCount, listRestUrl, MAX_POST_ID, totalAfterOffset } from './common.js';
import { TICKET_MESSAGES, TicketErrors } from './errors.js';
import { defaultProvider, providerBySlug, providerFilter, resolveProvider } from './providers.js';
import {
  csvArg,
  pageArg,
  idListArg,
  isPostIdList,
  pathIdArg,
  positiveIntArg,
  stringArg,
  timeArg,
} from './ticket-args.js';
import { issueAddTicketNonce, ticketNonceValid } from './ticket-nonces.js';
import { listTicketIds, statusList, type TicketListQuery } from './tickets.repo.js';
import { createTicket, deleteTicket, readableTicket, updateTicket, type TicketFields } from './tickets.service.js';
import { presentTickets, ticketObjects } from './views.js';
import { expireStaleReservationsNow } from './orders.service.js';

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

const bool = (description: string) => ({ description, type: 'boolean' }) as const;
const int = (description: string) => ({ description, type: 'integer' }) as const;

/** `GET /tickets` filters, as the original declares them (spec defaults for order and orderby). */
export const TICKET_LIST_ARGS = defineArgs({
  page: pageArg('The page of results to return; defaults to 1', { default: 1, minimum: 1 }),
  per_page: pageArg('How many tickets to return per results page; defaults to posts_per_page.', { default: 10, minimum: 1, maximum: 100 }),
  search: stringArg('Limit results to tickets containing the specified string in the title or description.'),
  offset: int('Offset the results by a specific number of items.'),
  order: { description: 'Sort results in ASC or DESC order. Defaults to ASC.', type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' },
  orderby: {
    description: 'Order the results by one of date, relevance, id, include, title, or slug; defaults to title.',
    type: 'string',
    enum: ['id', 'include', 'title', 'slug'],
    default: 'title',
  },
  is_available: bool('Limit results to tickets that have or do not have capacity currently available.'),
  provider: csvArg('Limit results to tickets provided by one of the providers specified in the CSV list or array; defaults to all available.'),
  after: timeArg('Limit results to tickets created after or on the specified UTC date or timestamp.'),
  before: timeArg('Limit results to tickets created before or on the specified UTC date or timestamp.'),
  include: idListArg('Limit results to a specific CSV list or array of ticket IDs.'),
  exclude: idListArg('Exclude a specific CSV list or array of ticket IDs from the results.'),
  include_post: idListArg('Limit results to tickets that are assigned to one of the posts specified in the CSV list or array.', isPostIdList),
  exclude_post: idListArg('Limit results to tickets that are not assigned to any of the posts specified in the CSV list or array.', isPostIdList),
  attendees_min: int('Limit results to tickets that have at least this number or attendees.'),
  attendees_max: int('Limit results to tickets that have at most this number of attendees.'),
  checkedin_min: int('Limit results to tickets that have at most this number of checked-in attendee.'),
  checkedin_max: int('Limit results to tickets that have at least this number of checked-in attendees.'),
  capacity_min: int('Limit results to tickets that have at least this capacity.'),
  capacity_max: int('Limit results to tickets that have at most this capacity.'),
  available_from: timeArg('Limit results to tickets that will be available at or after the specified UTC date (parseable by strtotime) or timestamp.'),
  available_until: timeArg('Limit results to tickets that will be available up to the specified UTC date (parseable by strtotime) or timestamp.'),
  post_status: csvArg('Limit results to tickets assigned to posts that are in one of the post statuses specified in the CSV list or array; defaults to publish.', 'string', { default: 'publish' }),
  status: csvArg('Limit results to tickets that are in one of post statuses specified in the CSV list or array; defaults to publish.', 'string', { default: 'publish' }),
  currency: csvArg('Limit results to tickets priced in one of the 3-letter currency codes specified in the CSV list or array.'),
  attendee_information_available: bool('Limit results to tickets that provide attendees the possibility to fill in additional information or not; requires ET+.'),
});

const ID_ARG = pathIdArg('The ticket post ID');
type ById = TypedRequest<{ id: typeof ID_ARG }>;

/** The block editor's ticket fields (ET `ticket_args`): strings defaulting to `""`. */
function ticketField(description: string, fallback = ''): ArgSchema {
  return {
    description,
    type: 'string',
    default: fallback,
    validate: (v) => typeof v === 'string' || typeof v === 'number',
    sanitize: (v) => sanitizeTextField(v),
  };
}

const TICKET_FIELD_ARGS: Record<string, ArgSchema> = {
  name: ticketField('The ticket name.'),
  description: ticketField('The ticket description.'),
  price: ticketField('The ticket price.'),
  show_description: ticketField('Whether to show the description (`yes` or `no`).', 'yes'),
  start_date: ticketField('Sale start date (YYYY-MM-DD).'),
  start_time: ticketField('Sale start time (HH:MM:SS).'),
  end_date: ticketField('Sale end date (YYYY-MM-DD).'),
  end_time: ticketField('Sale end time (HH:MM:SS).'),
  sku: ticketField('The ticket SKU.'),
  iac: ticketField('Individual attendee collection mode (`none`, `allowed`, `required`).'),
  ticket: { description: 'Provider extras: `capacity`, `mode` (`own`, `global`, `capped`, `unlimited`), `event_capacity`.', type: 'object' },
};

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

/** Ticket fields the client actually sent (defaults do not overwrite stored values). */
function sentFields(req: RestRequest): TicketFields {
  const out: Record<string, unknown> = {};
  for (const name of [...Object.keys(TICKET_FIELD_ARGS), 'menu_order']) if (req.has(name)) out[name] = req.params[name];
  return out as TicketFields;
}

/** A `_min`/`_max` pair as bounds; either end works alone (the other is open). */
function between(req: RestRequest, min: string, max: string): [number, number] | undefined {
  if (!req.has(min) && !req.has(max)) return undefined;
  return [req.has(min) ? clampCount(Number(req.params[min])) : 0, req.has(max) ? clampCount(Number(req.params[max])) : MAX_POST_ID];
}

/** `GET /tickets`. */
async function listTickets(req: TypedRequest<typeof TICKET_LIST_ARGS>, ctx: AppContext) {
  await expireStaleReservationsNow(ctx);
  const manage = await hasManageAccess(req, ctx);
  const p = req.params;
  const perPage = Number(p.per_page);
  const page = clampCount(Math.max(1, Number(p.page)));
  const offset = req.has('offset') ? clampCount(Number(p.offset)) : 0;
  const q: TicketListQuery = {
    orderby: p.orderby,
    order: p.order,
    limit: perPage,
    offset: offset + (page - 1) * perPage,
    // Those with manage access see every status unless they ask; others published tickets of published posts.
    postStatuses: p.post_status !== undefined && req.has('post_status') ? statusList(p.post_status) : manage ? statusList(['any']) : ['publish'],
    statuses: p.status !== undefined && req.has('status') ? statusList(p.status) : manage ? statusList(['any']) : ['publish'],
  };
  if (req.has('search')) q.search = String(p.search);
  if (p.include_post !== undefined) q.includePosts = p.include_post;
  if (p.exclude_post !== undefined) q.excludePosts = p.exclude_post;
  if (p.is_available !== undefined) q.isAvailable = p.is_available;
  if (p.provider !== undefined) q.providers = providerFilter(p.provider);
  if (p.after !== undefined) q.afterGmt = p.after;
  if (p.before !== undefined) q.beforeGmt = p.before;
  if (p.include !== undefined) q.include = p.include;
  if (p.exclude !== undefined) q.exclude = p.exclude;
  if (p.available_from !== undefined) q.availableFromGmt = p.available_from;
  if (p.available_until !== undefined) q.availableUntilGmt = p.available_until;
  if (p.currency !== undefined) q.currencies = p.currency.map((c) => c.toUpperCase());
  if (p.attendee_information_available !== undefined) q.attendeeInformation = p.attendee_information_available;
  if (manage) {
    const a = between(req, 'attendees_min', 'attendees_max');
    const c = between(req, 'checkedin_min', 'checkedin_max');
    const k = between(req, 'capacity_min', 'capacity_max');
    if (a) q.attendeesBetween = a;
    if (c) q.checkedInBetween = c;
    if (k) q.capacityBetween = k;
  } else {
    q.visibility = { userId: req.user?.id ?? 0, readPrivate: req.user?.can('read_private_posts') ?? false };
  }

  const { ids, total: matches } = await listTicketIds(ctx.db, q);
  const total = totalAfterOffset(matches, offset);
  const totalPages = Math.ceil(total / perPage);
  if (page !== 1 && page > totalPages) return TicketErrors.invalidPageNumber();
  const body: Record<string, unknown> = {
    rest_url: listRestUrl(ctx, req, '/tickets/', TICKET_LIST_ARGS),
    total,
    total_pages: totalPages,
    tickets: await ticketObjects(ctx, req, ids),
  };
  // Ticket editors listing one post's tickets get the nonce to add tickets to it.
  const posts = q.includePosts;
  if (posts?.length === 1 && req.user) {
    const post = await getPost(ctx.db, posts[0]!);
    if (post && canEditTicketsOf(req.user, post)) body.add_ticket_nonce = await issueAddTicketNonce(ctx, req, post.id);
  }
  return respond(body, { headers: { 'X-ET-TOTAL': String(total), 'X-ET-TOTAL-PAGES': String(totalPages) } });
}

/** `GET /tickets/{id}`. */
async function getTicketHandler(req: ById, ctx: AppContext) {
  await expireStaleReservationsNow(ctx);
  const readable = await readableTicket(ctx.db, req.user, req.params.id);
  if (!('ticket' in readable)) return readable;
  const [object] = await presentTickets(ctx, req, [readable.ticket], { single: true });
  return object;
}

/**
 * "Edit posts" of the post's type plus the nonce, else 403 `forbidden` "Invalid nonce". `nonceOptional`
 * (create only): an application-password request needs none, since nonces guard cookie sessions
 * against forged requests and such a client has no session to forge.
 */
async function editorAllowed(
  req: RestRequest,
  ctx: AppContext,
  postId: unknown,
  action: 'add_ticket_nonce' | 'edit_ticket_nonce' | 'remove_ticket_nonce',
  boundTo: number | undefined,
  nonceOptional = false,
) {
  const id = typeof postId === 'number' ? postId : Number(postId);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const post = await getPost(ctx.db, id);
  if (!post || !canEditTicketsOf(req.user, post)) return undefined;
  if (nonceOptional && req.auth.method === 'app-password') return post;
  return (await ticketNonceValid(ctx, req, action, boundTo ?? id, req.params[action])) ? post : undefined;
}

async function singleView(req: RestRequest, ctx: AppContext, id: number) {
  const [object] = await ticketObjects(ctx, req, [id], { single: true });
  return respond(object, { status: 202 });
}

/**
 * `POST /tickets`. CASE: the original's declared args are malformed (nested under numeric keys), so
 * `post_id`, `add_ticket_nonce` and `provider` are not enforced as args: a cookie session without the
 * nonce is 403. Without `provider` the site's default ticket provider is used.
 */
async function createTicketHandler(req: RestRequest, ctx: AppContext) {
  const post = await editorAllowed(req, ctx, req.params.post_id, 'add_ticket_nonce', undefined, true);
  if (!post) return TicketErrors.forbidden();
  const provider = req.has('provider') ? resolveProvider(req.params.provider) : await defaultProvider(ctx);
  if (!provider) return TicketErrors.badRequest();
  const id = await createTicket(ctx, req.user?.id ?? 0, post, provider, sentFields(req));
  if (typeof id !== 'number') return id;
  return singleView(req, ctx, id);
}

/** `POST|PUT|PATCH /tickets/{id}`: changes only the fields sent. */
async function updateTicketHandler(req: ById, ctx: AppContext) {
  const ticketId = req.params.id;
  const post = await editorAllowed(req, ctx, req.params.post_id, 'edit_ticket_nonce', ticketId);
  if (!post) return TicketErrors.forbidden();
  const readable = await readableTicket(ctx.db, req.user, ticketId);
  if (!('ticket' in readable)) return TicketErrors.badRequest();
  const { ticket } = readable;
  // CASE: upstream would silently move the ticket to the body's post; a mismatch is refused instead.
  if (ticket.postId !== post.id) return TicketErrors.badRequest(TICKET_MESSAGES.ticketPostMismatch);
  const error = await updateTicket(ctx, ticket, providerBySlug(ticket.provider), sentFields(req));
  if (error) return error;
  return singleView(req, ctx, ticketId);
}

/** `DELETE /tickets/{id}`: 202 with a bare `true`. */
async function deleteTicketHandler(req: ById, ctx: AppContext) {
  const ticketId = req.params.id;
  const readable = await readableTicket(ctx.db, req.user, ticketId);
  if (!('ticket' in readable)) return readable;
  const post = await editorAllowed(req, ctx, req.params.post_id, 'remove_ticket_nonce', ticketId);
  if (!post) return TicketErrors.forbidden();
  if (readable.ticket.postId !== post.id) return TicketErrors.badRequest(TICKET_MESSAGES.ticketPostMismatch);
  return respond(await deleteTicket(ctx, readable.ticket), { status: 202 });
}

/** Route declarations of `/tickets` and `/tickets/{id}`. */
export const ticketRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/tickets/{id}',
    endpoints: [
      endpoint({ methods: READABLE, args: { id: ID_ARG }, permission: allowAll, handler: getTicketHandler }),
      endpoint({
        methods: EDITABLE,
        args: {
          id: ID_ARG,
          post_id: positiveIntArg('The post the ticket belongs to.', true),
          edit_ticket_nonce: stringArg('The `edit_ticket_nonce` issued with the ticket.', { required: true }),
          ...TICKET_FIELD_ARGS,
        },
        permission: allowAll,
        handler: updateTicketHandler,
      }),
      endpoint({
        methods: DELETABLE,
        args: {
          id: ID_ARG,
          post_id: positiveIntArg('The post the ticket belongs to.', true),
          remove_ticket_nonce: stringArg('The `remove_ticket_nonce` issued with the ticket.', { required: true }),
        },
        permission: allowAll,
        handler: deleteTicketHandler,
      }),
    ],
  },
  {
    path: '/tickets',
    endpoints: [
      endpoint({ methods: READABLE, args: TICKET_LIST_ARGS, permission: allowAll, handler: listTickets }),
      endpoint({ methods: CREATABLE, args: { description: TICKET_FIELD_ARGS.description! }, permission: allowAll, handler: createTicketHandler }),
    ],
  },
];

