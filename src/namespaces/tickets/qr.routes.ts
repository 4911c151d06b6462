/**
 * @module namespaces/tickets/qr.routes
 * `/qr/{id}` and `/qr` (ET `REST/V1/Endpoints/QR.php`): the check-in state of an attendee (JSON, not
 * an image) and the check-in app's scanner call, authorised by the check-in API key.
 */
import type { AppContext } from '../../app-context.js';
import { getPost } from '../../content/posts.js';
import { allowAll } from '../../rest/permissions.js';
import { READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canReadPost } from './access.js';
import { getAttendee } from './attendees.repo.js';
import { TicketErrors } from './errors.js';
import { ATTENDEE_TYPES, ORDER_TYPES, TICKET_TYPES } from './providers.js';
import { qrCheckIn } from './qr.service.js';
import { withChecks } from '../../rest/checks.js';
import { numericStringArg, positiveIntArg, stringArg, type ArgCheck } from './ticket-args.js';
import { postTypes } from './posts.repo.js';
import { positiveInt } from './common.js';

/** The ID must name a ticket, an attendee or an order of a provider here. */
const isTicketingId: ArgCheck = async (value, _req, ctx) => {
  const id = positiveInt(value);
  if (id === undefined) return false;
  const type = (await postTypes(ctx.db, [id])).get(id);
  return type !== undefined && [...TICKET_TYPES, ...ATTENDEE_TYPES, ...ORDER_TYPES].includes(type);
};

/** `GET /qr/{id}`: `{id, checked_in}` with the raw check-in flag (`"1"` or `""`). */
async function getQr(req: RestRequest, ctx: AppContext) {
  const id = req.params.id as number;
  const post = await getPost(ctx.db, id);
  if (!post) return TicketErrors.qrTicketNotAccessible();
  if (!canReadPost(req.user, post)) return TicketErrors.qrTicketNotAccessible();
  const attendee = ATTENDEE_TYPES.includes(post.type) ? await getAttendee(ctx.db, id) : undefined;
  return { id, checked_in: attendee?.checkedIn ? '1' : '' };
}

/** `GET /qr?api_key&ticket_id&security_code[&event_id]`: the scanner's check-in. */
async function qrCheckInHandler(req: RestRequest, ctx: AppContext) {
  const answer = await qrCheckIn(ctx, {
    api_key: req.params.api_key,
    ticket_id: req.params.ticket_id,
    event_id: req.params.event_id,
    security_code: req.params.security_code,
    ip: req.ip,
  });
  return respond(answer.body, { status: answer.status });
}

/** Route declarations of `/qr/{id}` and `/qr`. */
export const qrRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/qr/{id}',
    endpoints: [{ methods: READABLE, args: withChecks({ id: positiveIntArg('The ticket id.', true) }, { id: isTicketingId }), permission: allowAll, handler: getQr }],
  },
  {
    path: '/qr',
    endpoints: [
      {
        methods: READABLE,
        args: {
          // CASE: no default is declared: the original's discovery entry would expose the key.
          api_key: stringArg('The API key to authorize check in.', { required: true }),
          ticket_id: numericStringArg('The ID of the ticket to check in.', true),
          security_code: stringArg('The security code of the ticket to verify for check in.', { required: true }),
        },
        permission: allowAll,
        handler: qrCheckInHandler,
      },
    ],
  },
];
