/**
 * @module namespaces/tickets/attendees.routes
 * `/attendees` and `/attendees/{id}` (ET `Attendee_Archive.php`, `Single_Attendee.php`): public
 * reads limited to public attendees of posts that show their attendee list; creation, updates and
 * check-in with manage access. Also `/attendees/{id}/qr`, the attendee's QR code as a PNG.
 */
import type { AppContext } from '../../app-context.js';
import { validateValue } from '../../rest/schema.js';
import { sanitizeTextField } from '../../rest/wp-sanitize.js';
import { RawBody } from '../../rest/json-text.js';
import { allowAll } from '../../rest/permissions.js';
import { defineArgs, endpoint, type TypedRequest } from '../../rest/typed.js';
import { CREATABLE, EDITABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { hasManageAccess } from './access.js';
import { getAttendee } from './attendees.repo.js';
import { listAttendeePage, PUBLIC_ORDER_STATUSES, type AttendeeListQuery } from './attendees-list.repo.js';
import { attendeeStatus, createManualAttendee, readableAttendee, updateAttendee, type AttendeeChanges } from './attendees.service.js';
import { clampCount, listRestUrl, totalAfterOffset } from './common.js';
import { TICKET_MESSAGES, TicketErrors } from './errors.js';
import { providerBySlug, providerFilter, RSVP } from './providers.js';
import { checkinLink, qrPng } from './qr.service.js';
import {
  csvArg,
  pageArg,
  emailArg,
  idListArg,
  isPostId,
  isPostIdList,
  isTicketId,
  isTicketIdList,
  positiveIntArg,
  stringArg,
  timeArg,
} from './ticket-args.js';
import { getTicket, statusList } from './tickets.repo.js';
import { attendeeObjects, presentAttendees } from './views.js';

const bool = (description: string) => ({ description, type: 'boolean' }) as const;
const int = (description: string) => ({ description, type: 'integer' }) as const;

/** `GET /attendees` filters. */
export const ATTENDEE_LIST_ARGS = defineArgs({
  page: pageArg('The page of results to return; defaults to 1', { default: 1, minimum: 1 }),
  per_page: pageArg('How many attendees to return per results page; defaults to posts_per_page.', { default: 10, minimum: 1, maximum: 100 }),
  provider: csvArg('Limit results to attendees whose ticket is provided by one of the providers specified in the CSV list or array; defaults to all the available.', 'string', { type: 'string' }),
  search: stringArg('Limit results to attendees containing the specified string in the title or description.'),
  offset: int('Offset the results by a specific number of items.'),
  order: { description: 'Sort results in ASC or DESC order. Defaults to ASC.', type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' },
  orderby: {
    description: 'Order the results by one of date, relevance, id, include, title or slug. Defaults to id.',
    type: 'string',
    enum: ['id', 'date', 'include', 'title', 'slug'],
    default: 'id',
  },
  post_id: { ...int('Limit results to attendees by post the ticket is associated with.'), check: isPostId },
  ticket_id: { ...int('Limit results to attendees associated with a ticket.'), check: isTicketId },
  after: timeArg('Limit results to attendees created after or on the specified UTC date or timestamp.'),
  before: timeArg('Limit results to attendees created before or on the specified UTC date or timestamp.'),
  include: idListArg('Limit results to a specific CSV list or array of attendee IDs.'),
  exclude: idListArg('Exclude a specific CSV list or array of attendee IDs from the results.'),
  price_max: int('Limit results to attendees that paid tickets a price equal or below the specified value; if not specified no maximum price limit will be used.'),
  price_min: int('Limit results to attendees that paid tickets a price equal or above the specified value; if not specified no minimum price limit will be used.'),
  include_post: idListArg('Limit results to attendees whose ticket is assigned to one of the posts specified in the CSV list or array.', isPostIdList),
  exclude_post: idListArg('Limit results to attendees whose tickets is not assigned to any of the posts specified in the CSV list or array..', isPostIdList),
  include_ticket: idListArg('Limit results to a specific CSV list or array of ticket IDs.', isTicketIdList),
  exclude_ticket: idListArg('Exclude a specific CSV list or array of ticket IDs.', isTicketIdList),
  post_status: csvArg('Limit results to attendees for posts that are in one of the post statuses specified in the CSV list or array; defaults to publish.', 'string', { default: 'publish' }),
  status: csvArg('Limit results to attendees that are in one of post statuses specified in the CSV list or array; defaults to publish.', 'string', { default: 'publish' }),
  order_status: csvArg('Limit results to attendees whose order status is in one of post statuses specified in the CSV list or array; defaults to public.'),
  checkedin: bool('Limit results to attendees that are or not checked-in.'),
  rsvp_going_status: csvArg('Limit results to RSVP Attendees that have one of the RSVP Going status specified in the CSV list or array.'),
  attendee_information_available: bool('Limit results to attendees for tickets that provide attendees the possibility to fill in additional information or not; requires ET+.'),
  name: stringArg('Limit results to attendees whose name contains the specified string (case-insensitive).'),
  email: stringArg('Limit results to attendees whose e-mail contains the specified string (case-insensitive).'),
});

const ID_ARG = positiveIntArg('The attendee post ID', true);
type ById = TypedRequest<{ id: typeof ID_ARG }>;

const CREATE_ARGS = defineArgs({
  ticket_id: { description: 'The Ticket ID, where the attendee is registered.', type: 'integer', required: true, check: isTicketId },
  full_name: { description: 'Full name of the attendee.', type: 'string', required: true },
  email: emailArg('Email of the attendeee.', true),
  attendee_status: { description: 'Order Status for the attendee.', type: 'string' },
  check_in: { description: 'Check in value for the attendee.', type: 'boolean' },
});

const requireManage = async (req: RestRequest, ctx: AppContext) => hasManageAccess(req, ctx);

/** `GET /attendees`. */
async function listAttendees(req: TypedRequest<typeof ATTENDEE_LIST_ARGS>, ctx: AppContext) {
  const manage = await hasManageAccess(req, ctx);
  const p = req.params;
  const perPage = Number(p.per_page);
  const page = clampCount(Math.max(1, Number(p.page)));
  const offset = req.has('offset') ? clampCount(Number(p.offset)) : 0;
  const orderStatuses = p.order_status !== undefined ? p.order_status : [manage ? 'any' : 'public'];
  const q: AttendeeListQuery = {
    orderby: p.orderby,
    order: p.order,
    limit: perPage,
    offset: offset + (page - 1) * perPage,
    postStatuses: p.post_status !== undefined && req.has('post_status') ? statusList(p.post_status) : manage ? statusList(['any']) : ['publish'],
    statuses: p.status !== undefined && req.has('status') ? statusList(p.status) : manage ? statusList(['any']) : ['publish'],
    publicOnly: !manage,
  };
  if (!orderStatuses.includes('any')) q.orderStatuses = orderStatuses.flatMap((s) => (s === 'public' ? PUBLIC_ORDER_STATUSES : [s]));
  if (p.provider !== undefined) q.providers = providerFilter(p.provider);
  // Without manage access these would answer "is there an attendee with this address" one guess at
  // a time (`total`), so they are ignored.
  if (req.has('search') && manage) q.search = String(p.search);
  if (p.post_id !== undefined) q.postIds = [p.post_id];
  if (p.include_post !== undefined) q.postIds = p.include_post;
  if (p.exclude_post !== undefined) q.excludePosts = p.exclude_post;
  if (p.ticket_id !== undefined) q.ticketIds = [p.ticket_id];
  if (p.include_ticket !== undefined) q.ticketIds = p.include_ticket;
  if (p.exclude_ticket !== undefined) q.excludeTickets = p.exclude_ticket;
  if (p.after !== undefined) q.afterGmt = p.after;
  if (p.before !== undefined) q.beforeGmt = p.before;
  if (p.include !== undefined) q.include = p.include;
  if (p.exclude !== undefined) q.exclude = p.exclude;
  if (p.checkedin !== undefined) q.checkedIn = p.checkedin;
  if (req.has('rsvp_going_status')) {
    q.rsvpGoing = p.rsvp_going_status!.map((s) => RSVP.statusAliases[s.toLowerCase()] ?? s.toLowerCase());
  }
  if (req.has('price_min')) q.priceMin = clampCount(Number(p.price_min));
  if (req.has('price_max')) q.priceMax = clampCount(Number(p.price_max));
  if (p.attendee_information_available !== undefined) q.attendeeInformation = p.attendee_information_available;
  if (req.has('name')) q.name = String(p.name);
  if (req.has('email') && manage) q.email = String(p.email);

  const { attendees, tickets, total: matches } = await listAttendeePage(ctx.db, q);
  const total = totalAfterOffset(matches, offset);
  const totalPages = Math.ceil(total / perPage);
  if (page !== 1 && page > totalPages) return TicketErrors.invalidPageNumber();
  const body = {
    rest_url: listRestUrl(ctx, req, '/attendees/', ATTENDEE_LIST_ARGS),
    total,
    total_pages: totalPages,
    attendees: await presentAttendees(ctx, attendees, manage, tickets),
  };
  return respond(body, { headers: { 'X-ET-TOTAL': String(total), 'X-ET-TOTAL-PAGES': String(totalPages) } });
}

/** `GET /attendees/{id}`. */
async function getAttendeeHandler(req: ById, ctx: AppContext) {
  const manage = await hasManageAccess(req, ctx);
  const a = await readableAttendee(ctx.db, req.params.id, manage);
  if (!('ticketId' in a)) return a;
  return (await attendeeObjects(ctx, [a.id], manage, new Map([[a.id, a]])))[0];
}

function falsy(value: unknown): boolean {
  return value === false || value === 0 || value === '0' || value === 'false' || value === 'no' || value === '';
}

/** `POST /attendees` (source `rest-api`), 201 with the attendee. */
async function createAttendeeHandler(req: TypedRequest<typeof CREATE_ARGS>, ctx: AppContext) {
  const ticket = await getTicket(ctx.db, req.params.ticket_id);
  if (!ticket) return TicketErrors.badRequest();
  const provider = providerBySlug(ticket.provider);
  const rawStatus = req.has('attendee_status') ? req.params.attendee_status : req.has('order_status') ? req.params.order_status : undefined;
  const status = rawStatus === undefined ? provider.defaultStatus : attendeeStatus(provider, rawStatus);
  if (typeof status !== 'string') return status;
  // RSVP attendees added this way are opted out unless `optout` is sent falsy (as upstream).
  const optout = req.has('optout') ? !falsy(req.params.optout) : !provider.paid;
  const userId = Number.parseInt(String(req.params.user_id ?? '0'), 10);
  const id = await createManualAttendee(ctx, ticket, {
    fullName: String(req.params.full_name),
    email: String(req.params.email),
    status,
    optout,
    userId: Number.isSafeInteger(userId) && userId > 0 ? userId : 0,
    checkIn: req.params.check_in === true,
    checkInAuthor: req.user?.id ?? 0,
  });
  if (typeof id !== 'number') return id;
  return respond((await attendeeObjects(ctx, [id], true))[0], { status: 201 });
}

/** `POST|PUT|PATCH /attendees/{id}`: check-in, and the holder's name, e-mail and status; 201. */
async function updateAttendeeHandler(req: ById, ctx: AppContext) {
  const a = await getAttendee(ctx.db, req.params.id);
  if (!a) return TicketErrors.invalidAttendeeId();
  const provider = providerBySlug(a.provider);
  const changes: AttendeeChanges = {};
  if (req.has('attendee_status')) {
    const status = attendeeStatus(provider, req.params.attendee_status);
    if (typeof status !== 'string') return status;
    // CASE: a paid attendee's status is its order's; it changes through the order.
    if (a.orderId !== null && provider.paid && status !== a.orderStatus) {
      return TicketErrors.badRequest(TICKET_MESSAGES.orderStatusFollowsOrder);
    }
    changes.status = status;
  }
  if (req.has('full_name')) changes.fullName = sanitizeTextField(req.params.full_name);
  if (req.has('email')) {
    if (validateValue(req.params.email, { type: 'string', format: 'email' }, 'email') !== true) return TicketErrors.badRequest(TICKET_MESSAGES.invalidEmail);
    changes.email = sanitizeTextField(req.params.email);
  }
  if (req.has('check_in')) changes.checkIn = req.params.check_in === true;
  const error = await updateAttendee(ctx, a, changes, req.user?.id ?? 0);
  if (error) return error;
  return respond((await attendeeObjects(ctx, [a.id], true))[0], { status: 201 });
}

/** `GET /attendees/{id}/qr`: the PNG the ticket e-mail carries; manage access or the attendee's security code. */
async function attendeeQrHandler(req: ById, ctx: AppContext) {
  const manage = await hasManageAccess(req, ctx);
  const a = await getAttendee(ctx.db, req.params.id);
  if (!a) return manage ? TicketErrors.attendeeNotFound() : TicketErrors.attendeeNotAccessible();
  if (!manage && req.params.security_code !== a.securityCode) return TicketErrors.attendeeNotAccessible();
  return new RawBody('image/png', await qrPng(checkinLink(ctx, a)));
}

/** Route declarations of `/attendees`, `/attendees/{id}` and `/attendees/{id}/qr`. */
export const attendeeRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/attendees/{id}',
    endpoints: [
      endpoint({ methods: READABLE, args: { id: ID_ARG }, permission: allowAll, handler: getAttendeeHandler }),
      endpoint({
        methods: EDITABLE,
        args: { id: ID_ARG, check_in: { description: 'Check in value for the attendee.', type: 'boolean' } },
        permission: requireManage,
        handler: updateAttendeeHandler,
      }),
    ],
  },
  {
    path: '/attendees',
    endpoints: [
      endpoint({
        methods: READABLE,
        args: ATTENDEE_LIST_ARGS,
        permission: allowAll,
        handler: listAttendees,
      }),
      endpoint({
        methods: CREATABLE,
        args: CREATE_ARGS,
        permission: requireManage,
        handler: createAttendeeHandler,
      }),
    ],
  },
  {
    path: '/attendees/{id}/qr',
    endpoints: [
      endpoint({
        methods: READABLE,
        args: { id: ID_ARG, security_code: { description: "The attendee's security code (from the ticket e-mail); not needed with manage access.", type: 'string' } },
        permission: allowAll,
        handler: attendeeQrHandler,
      }),
    ],
  },
];
