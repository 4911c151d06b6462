/**
 * @module namespaces/tickets/ticket-email
 * The tickets e-mail sent when an order completes or an RSVP says "going": one message to the
 * purchaser with every ticket, each with its security code and its QR code (an inline PNG the
 * check-in app scans). Sent through `ctx.mailer` only when mail is configured; a failure is logged and
 * never undoes the order.
 */
import type { AppContext } from '../../app-context.js';
import { getPostsByIds } from '../../content/posts.js';
import type { MailMessage } from '../../remote/mailer.js';
import { attendeeIdsOfOrder, loadAttendees, type AttendeeRecord } from './attendees.repo.js';
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
    const name = a.holderName || a.purchaserName;
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

/** Sends the tickets of `attendeeIds` to their purchaser, if mail is configured. Never throws. */
export async function sendTicketEmail(ctx: AppContext, attendeeIds: readonly number[]): Promise<boolean> {
  if (!ctx.mailer.configured || attendeeIds.length === 0) return false;
  try {
    const loaded = await loadAttendees(ctx.db, attendeeIds);
    const message = await buildTicketEmail(ctx, attendeeIds.map((id) => loaded.get(id)).filter((a): a is AttendeeRecord => a !== undefined));
    if (!message) return false;
    await ctx.mailer.send(message);
    return true;
  } catch (err) {
    ctx.log.error({ err, attendees: attendeeIds }, 'sending the tickets e-mail failed');
    return false;
  }
}

/** Sends an order's tickets to its purchaser, if mail is configured. Never throws. */
export async function sendOrderTickets(ctx: AppContext, orderId: number): Promise<boolean> {
  if (!ctx.mailer.configured) return false;
  return sendTicketEmail(ctx, await attendeeIdsOfOrder(ctx.db, orderId));
}
