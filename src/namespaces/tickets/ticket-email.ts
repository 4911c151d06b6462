/**
 * @module namespaces/tickets/ticket-email
 * The tickets e-mail sent when an order completes or an RSVP says "going": one message to the
 * purchaser with every ticket, each with its security code and its QR code (an inline PNG the
 * check-in app scans). Queued as a job when the order settles (only when mail is configured): a failed
 * send is retried by the jobs runner, never undoes the order, and a sent mark stops a second send.
 */
import type { Kysely } from 'kysely';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../storage/schema.js';
import { getPostsByIds } from '../../content/posts.js';
import type { MailMessage } from '../../remote/mailer.js';
import { attendeeIdsOfOrder, loadAttendees, type AttendeeRecord } from './attendees.repo.js';
import { mailSafeName } from './mail-names.js';
import { checkinLink, qrEnabled, qrPng } from './qr.service.js';
import { loadTickets } from './tickets.repo.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);
}

/** The message for `attendees` (all of one purchaser). */
export async function buildTicketEmail(ctx: AppContext, attendees: readonly AttendeeRecord[]): Promise<MailMessage | undefined> {
  const first = attendees[0];
  if (!first) return undefined;
  const to = first.purchaserEmail || first.holderEmail;
  if (!to) return undefined;
  const site = String(await ctx.options.get('blogname'));
  const tickets = await loadTickets(ctx.db, attendees.map((a) => a.ticketId));
  const posts = await getPostsByIds(ctx.db, attendees.map((a) => a.postId));
  const withQr = await qrEnabled(ctx);

  const textParts: string[] = [];
  const htmlParts: string[] = [];
  const attachments: NonNullable<MailMessage['attachments']> = [];
  for (const a of attendees) {
    const ticketTitle = tickets.get(a.ticketId)?.post.title ?? '';
    const eventTitle = posts.get(a.postId)?.title ?? '';
    // Buyers' text: never a link in the site's mail (see mail-names.ts).
    const name = mailSafeName(a.holderName || a.purchaserName);
    const link = checkinLink(ctx, a);
    textParts.push(`${eventTitle}\n${ticketTitle} — ${name}\nTicket #${a.id}, security code ${a.securityCode}\n${link}`);
    let img = '';
    if (withQr) {
      const cid = `qr-${a.id}@tickets`;
      attachments.push({ filename: `ticket-${a.id}.png`, content: await qrPng(link), contentType: 'image/png', cid });
      img = `<img src="cid:${cid}" alt="QR code of ticket #${a.id}" width="300" height="300" />`;
    }
    htmlParts.push(
      `<div class="ticket"><h2>${escapeHtml(eventTitle)}</h2><p>${escapeHtml(ticketTitle)} — ${escapeHtml(name)}</p>` +
        `<p>Ticket #${a.id} · Security code <strong>${escapeHtml(a.securityCode)}</strong></p>${img}</div>`,
    );
  }
  return {
    to,
    subject: `Your tickets from ${site}`,
    text: `Here are your tickets.\n\n${textParts.join('\n\n')}\n`,
    html: `<p>Here are your tickets.</p>${htmlParts.join('')}`,
    attachments,
  };
}

/** The job that e-mails an order's tickets. */
export const ORDER_EMAIL_JOB = 'tickets.order-email';

const orderEmailKey = (orderId: number) => `${ORDER_EMAIL_JOB}:${orderId}`;

/**
 * Queues the e-mail with an order's tickets, once per order (a second call returns the job already
 * there), if mail is configured. Pass the transaction that settles the order so the two commit together.
 */
export async function queueOrderTickets(ctx: AppContext, orderId: number, db: Kysely<Database> = ctx.db): Promise<boolean> {
  if (!ctx.mailer.configured) return false;
  await ctx.jobs.enqueue(ORDER_EMAIL_JOB, { orderId }, { db, dedupeKey: orderEmailKey(orderId), maxAttempts: 10 });
  return true;
}

/**
 * The {@link ORDER_EMAIL_JOB} handler: sends the tickets unless the order's sent mark is there, then
 * sets it. A failed SMTP send throws, so the runner retries it with backoff.
 */
export async function sendOrderTicketsJob(ctx: AppContext, payload: unknown): Promise<void> {
  const orderId = Number((payload as { orderId?: unknown } | null)?.orderId);
  if (!Number.isSafeInteger(orderId) || orderId <= 0) throw new Error('tickets.order-email: payload needs an orderId');
  const mark = orderEmailKey(orderId);
  if (await ctx.jobs.marked(mark)) return;
  const ids = await attendeeIdsOfOrder(ctx.db, orderId);
  const loaded = await loadAttendees(ctx.db, ids);
  const message = await buildTicketEmail(ctx, ids.map((id) => loaded.get(id)).filter((a): a is AttendeeRecord => a !== undefined));
  if (!message) return;
  await ctx.mailer.send(message);
  await ctx.jobs.mark(mark);
}
