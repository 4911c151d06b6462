/**
 * @module namespaces/tickets/qr.service
 * QR check-in (ET `REST/V1/Endpoints/QR.php`, `TEC\Tickets\QR\Connector`): the check-in link each
 * attendee's QR code encodes, the PNG image, and the scanner's check-in call with the original's
 * answers, in the original's order of checks. A check-in is one conditional UPDATE, so concurrent
 * scans of one ticket check it in exactly once.
 */
import QRCode from 'qrcode';
import type { AppContext } from '../../app-context.js';
import { checkinKeyAccepted } from './access.js';
import { checkInIfAllowed, getAttendee, getCheckInCandidate, markCheckedIn, type AttendeeListing, type AttendeeRecord } from './attendees.repo.js';
import { mayCheckIn } from './attendees.service.js';
import { nowPair, positiveInt, TICKETS_NS } from './common.js';
import { eventsService } from '../events/index.js';
import { capabilities } from '../../storage/dialect.js';
import { presentAttendees } from './views.js';

/** Site option: QR codes on tickets (the original's `tickets-enable-qr-codes`, on by default). */
export const QR_ENABLED_OPTION = 'tickets-enable-qr-codes';

/** The REST path prefix the check-in app calls, relative to the home URL (`wp-json/eventsuite/tickets/v1`). */
function restPrefix(ctx: Pick<AppContext, 'urls'>): string {
  const home = ctx.urls.home.replace(/\/+$/, '');
  const root = ctx.urls.apiRoot.startsWith(home) ? ctx.urls.apiRoot.slice(home.length) : new URL(ctx.urls.apiRoot).pathname;
  return `${root.replace(/^\/+|\/+$/g, '')}/${TICKETS_NS}`;
}

/**
 * The link a ticket's QR code encodes, as the original builds it: the home URL with `event_qr_code=1`,
 * the attendee ID as `ticket_id`, the `event_id`, the `security_code`, and the URL-encoded REST `path`
 * of the check-in route. The check-in app reads these and calls `GET {path}?api_key&ticket_id&security_code`.
 */
export function checkinLink(ctx: Pick<AppContext, 'urls'>, a: Pick<AttendeeRecord, 'id' | 'postId' | 'securityCode'>): string {
  const path = encodeURIComponent(`${restPrefix(ctx)}/qr`);
  return `${ctx.urls.home}/?event_qr_code=1&ticket_id=${a.id}&event_id=${a.postId}&security_code=${encodeURIComponent(a.securityCode)}&path=${path}`;
}

/** A PNG of `text` as a QR code. */
export function qrPng(text: string, width = 300): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width });
}

/** Site options: check in only while the event runs (the original's settings), with a buffer in minutes. */
export const HAPPENING_NOW_OPTION = 'tickets-plus-qr-check-in-events-happening-now';
export const HAPPENING_BUFFER_OPTION = 'tickets-plus-qr-check-in-events-happening-now-time-buffer';

/**
 * False when the "only while the event is happening" setting is on and the attendee's event (posts
 * that are not events always pass) is not running now, give or take the buffer.
 */
async function eventHappeningNow(ctx: AppContext, postId: number): Promise<boolean> {
  if (!(await onlyWhileHappening(ctx))) return true;
  const event = await eventsService.getEvent(ctx, postId);
  if (!event) return true;
  const buffer = Math.max(0, Number(await ctx.options.get<unknown>(HAPPENING_BUFFER_OPTION, 0)) || 0) * 60_000;
  const now = ctx.now().getTime();
  const start = Date.parse(`${event.startUtc.replace(' ', 'T')}Z`) - buffer;
  const end = Date.parse(`${event.endUtc.replace(' ', 'T')}Z`) + buffer;
  return now >= start && now <= end;
}

/** True when the "only while the event is happening" setting is on. */
async function onlyWhileHappening(ctx: Pick<AppContext, 'options'>): Promise<boolean> {
  const on = await ctx.options.get<unknown>(HAPPENING_NOW_OPTION, false);
  return on === true || on === 1 || on === '1' || on === 'yes';
}

/**
 * A code the check-in may compare in SQL as it is: a well-formed text without NUL (PostgreSQL cannot
 * bind one) of no absurd length. Others are compared in JavaScript after a plain read; no stored code
 * equals them anyway.
 */
function comparableInSql(code: string): boolean {
  return code.length <= 64 && !NOT_BINDABLE.test(code);
}

/** NUL, or half of a surrogate pair without the other (with the `u` flag a whole pair is one character). */
const NOT_BINDABLE = /[\u0000\uD800-\uDFFF]/u;

/** True unless an administrator turned QR codes off. */
export async function qrEnabled(ctx: Pick<AppContext, 'options'>): Promise<boolean> {
  const v = await ctx.options.get<unknown>(QR_ENABLED_OPTION, true);
  return !(v === false || v === 0 || v === '0' || v === 'no' || v === '');
}

/** The scanner's parameters, echoed back on a bad key as the original does. */
export interface CheckinCall {
  api_key: unknown;
  ticket_id: unknown;
  event_id: unknown;
  security_code: unknown;
  /** The scanner's address (wrong keys are counted per address). */
  ip: string;
}

/** What the QR check-in answers: a status and a plain body. */
export interface CheckinAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const QR_MESSAGES = {
  securityCode: 'Security code is not valid!',
  notFound: 'An attendee is not found with this ID.',
  notAuthorized: "This attendee&#039;s ticket is not authorized to be Checked in. Please check the order status.",
  alreadyCheckedIn: 'Already checked in!',
  notHappening: 'Event has not started or it has finished.',
  checkedIn: 'Checked In!',
} as const;

/**
 * `GET /qr`: the API key must equal the stored check-in key (else 400 with the parameters echoed);
 * then the security code must be the attendee's (403 `security_code_not_valid`; an unknown attendee
 * has no code, so it fails here too, as upstream); the attendee must still be usable (403
 * `attendee_not_found` when trashed or its ticket is gone); its order must be complete (403
 * `attendee_not_authorized`); it must not be checked in yet (403 `attendee_already_checked_in`,
 * also when a concurrent scan won); with the "only during the event" setting, the event must be running
 * (403 `event_not_happening_now`). Success: 201 `{msg, attendee}` with `checkin_details.source` `app`.
 * On PostgreSQL the read and the check-in are one statement (`checkInIfAllowed`) unless the event's
 * dates must be checked.
 */
export async function qrCheckIn(ctx: AppContext, call: CheckinCall): Promise<CheckinAnswer> {
  const echo = { api_key: call.api_key, ticket_id: call.ticket_id, event_id: call.event_id ?? null, security_code: call.security_code };
  if (!(await checkinKeyAccepted(ctx, call.api_key, call.ip))) return { status: 400, body: echo };
  if (Number(call.ticket_id) === 0) return { status: 400, body: echo };
  const id = positiveInt(call.ticket_id) ?? 0;

  const code = String(call.security_code);
  const when = await nowPair(ctx);
  const mark = { when, source: 'app', author: 0 } as const;
  // Where the engine can, the read and the conditional check-in are one statement; the checks below
  // then only choose the answer. The event's dates are not in that statement: with the "only while the
  // event is happening" setting on, the attendee is read first and checked in after, as elsewhere.
  const atOnce = id > 0 && capabilities(ctx.db).writesInWith && comparableInSql(code) && !(await onlyWhileHappening(ctx));
  const found = id <= 0 ? undefined : atOnce ? await checkInIfAllowed(ctx.db, id, code, mark) : await getCheckInCandidate(ctx.db, id);
  if (!found || found.attendee.securityCode !== code) {
    return { status: 403, body: { msg: QR_MESSAGES.securityCode, error: 'security_code_not_valid' } };
  }
  const { attendee, ticket } = found;
  if (attendee.post.status === 'trash' || !ticket) {
    return { status: 403, body: { msg: QR_MESSAGES.notFound, error: 'attendee_not_found' } };
  }
  const tickets = new Map([[attendee.ticketId, ticket]]);
  const view = async (a: AttendeeListing = attendee) => (await presentAttendees(ctx, [a], true, tickets))[0];
  if (!mayCheckIn(attendee)) {
    return { status: 403, body: { msg: QR_MESSAGES.notAuthorized, error: 'attendee_not_authorized', attendee: await view() } };
  }
  const already = { status: 403, body: { msg: QR_MESSAGES.alreadyCheckedIn, error: 'attendee_already_checked_in' } };
  if (attendee.checkedIn || attendee.qrStatus) return { ...already, body: { ...already.body, attendee: await view() } };
  if (!atOnce && !(await eventHappeningNow(ctx, attendee.postId))) {
    return { status: 403, body: { msg: QR_MESSAGES.notHappening, error: 'event_not_happening_now', attendee: await view() } };
  }
  const won = ('checkedIn' in found && found.checkedIn) || (await markCheckedIn(ctx.db, id, mark));
  if (!won) {
    // A concurrent scan won: show the attendee as that scan left it.
    const current = await getAttendee(ctx.db, id);
    return { ...already, body: { ...already.body, attendee: current ? await view(current) : undefined } };
  }
  // The check-in changed exactly these fields; the attendee is shown without reading it back.
  const checkedIn: AttendeeListing = { ...attendee, checkedIn: true, checkinLocal: when.local, checkinSource: 'app', checkinAuthor: 0 };
  return { status: 201, body: { msg: QR_MESSAGES.checkedIn, attendee: await view(checkedIn) } };
}
