/**
 * @module namespaces/tickets/event-page
 * The tickets section of the single event page (`eventPageSections`): each ticket the visitor may
 * see, as the tickets list answers it, with its price, what is left and, unless the ticket says not
 * to show it (`show_description`), its description.
 */
import { esc } from '../../admin/html.js';
import type { EventPageSection } from '../calendar-views/index.js';
import { RestError } from '../../rest/errors.js';
import { createRestRequest } from '../../rest/request.js';
import { valueOf } from '../../rest/serve.js';
import { TICKETS_NS } from './common.js';
import { loadTickets } from './tickets.repo.js';

interface TicketJson {
  id: number;
  title: string;
  description: string;
  cost: string;
  capacity_details?: { available?: number };
  is_available?: boolean;
}

function availability(t: TicketJson): string {
  const left = t.capacity_details?.available;
  if (t.is_available === false) return 'Sold out';
  return typeof left === 'number' && left >= 0 ? `${left} available` : 'Available';
}

export const ticketsSection: EventPageSection = async (host, caller, event) => {
  const res = await host.dispatcher.dispatch(
    createRestRequest({ method: 'GET', route: `/${TICKETS_NS}/tickets`, query: { include_post: event.id, per_page: 50 }, user: caller.user, auth: caller.auth, ip: caller.ip }),
  );
  if (res.data instanceof RestError) return '';
  const tickets = ((valueOf(res.data) as { tickets?: TicketJson[] }).tickets ?? []).filter((t) => t && typeof t.id === 'number');
  if (tickets.length === 0) return '';
  const records = await loadTickets(host.ctx.db, tickets.map((t) => t.id));
  const items = tickets.map((t) => {
    const description = records.get(t.id)?.showDescription !== false && t.description ? `<p class="tribe-tickets__item-description">${esc(t.description)}</p>` : '';
    return `<li class="tribe-tickets__item" data-ticket-id="${t.id}"><strong>${esc(t.title)}</strong> · <span class="tribe-tickets__item-price">${esc(t.cost)}</span> · <span class="tribe-tickets__item-availability">${esc(availability(t))}</span>${description}</li>`;
  });
  return `<section class="tribe-tickets"><h2>Tickets</h2><ul>${items.join('')}</ul></section>`;
};
