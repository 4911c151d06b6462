/**
 * @module namespaces/tickets/providers
 * The ticket providers this service implements, as the originals name them: a free RSVP provider and
 * the paid "Tribe Commerce" provider whose orders are paid through a payment gateway. Each provider
 * has its post types, attendee/order statuses and the names clients use for it (slug, aliases and the
 * original PHP class names the block editor sends).
 */
import type { Options } from '../../content/options.js';

export type ProviderSlug = 'rsvp' | 'tribe-commerce';

export interface TicketProvider {
  readonly slug: ProviderSlug;
  /** The original's class name (what the block editor sends as `provider`). */
  readonly className: string;
  /** Other names accepted for it. */
  readonly aliases: readonly string[];
  readonly ticketType: string;
  readonly attendeeType: string;
  readonly orderType: string;
  /** True when tickets cost money and go through an order with a payment. */
  readonly paid: boolean;
  /** The slug its orders carry (an attendee's `payment.provider`). */
  readonly orderSlug: string;
  /** Attendee statuses; for paid providers these are the order statuses. */
  readonly statuses: readonly string[];
  /** Extra spellings accepted for statuses (`going` → `yes`). */
  readonly statusAliases: Readonly<Record<string, string>>;
  /** Statuses that let an attendee check in (the order is complete / the guest is going). */
  readonly completed: readonly string[];
  /** Default status of attendees created by hand. */
  readonly defaultStatus: string;
}

export const RSVP: TicketProvider = Object.freeze({
  slug: 'rsvp',
  className: 'Tribe__Tickets__RSVP',
  aliases: ['rsvp'],
  ticketType: 'tribe_rsvp_tickets',
  attendeeType: 'tribe_rsvp_attendees',
  orderType: 'tribe_rsvp_orders',
  paid: false,
  orderSlug: 'rsvp',
  statuses: ['yes', 'no'],
  statusAliases: { going: 'yes', 'not-going': 'no' },
  completed: ['yes'],
  defaultStatus: 'yes',
});

export const TRIBE_COMMERCE: TicketProvider = Object.freeze({
  slug: 'tribe-commerce',
  className: 'Tribe__Tickets__Commerce__PayPal__Main',
  aliases: ['tribe-commerce', 'tpp'],
  ticketType: 'tribe_tpp_tickets',
  attendeeType: 'tribe_tpp_attendees',
  orderType: 'tribe_tpp_orders',
  paid: true,
  // The legacy PayPal provider's order data names it `tpp`.
  orderSlug: 'tpp',
  statuses: ['completed', 'pending', 'refunded', 'cancelled'],
  statusAliases: {},
  completed: ['completed'],
  defaultStatus: 'completed',
});

/** Every provider, in the order carts and lists walk them. */
export const PROVIDERS: readonly TicketProvider[] = Object.freeze([RSVP, TRIBE_COMMERCE]);

/** The provider a client names (slug, alias or class name, with or without a leading `\`). */
export function resolveProvider(name: unknown): TicketProvider | undefined {
  if (typeof name !== 'string') return undefined;
  const key = name.trim().replace(/^\\+/, '').toLowerCase();
  return PROVIDERS.find((p) => p.aliases.includes(key) || p.className.toLowerCase() === key);
}

/** The provider of a slug stored in our tables. */
export function providerBySlug(slug: string): TicketProvider {
  const p = PROVIDERS.find((x) => x.slug === slug);
  if (!p) throw new Error(`unknown ticket provider slug ${slug}`);
  return p;
}

/** Provider slugs a `provider` filter (CSV or list of names) selects; unknown names select nothing. */
export function providerFilter(names: readonly string[]): ProviderSlug[] {
  const out = new Set<ProviderSlug>();
  for (const n of names) {
    const p = resolveProvider(n);
    if (p) out.add(p.slug);
  }
  return [...out];
}

/** Post types of tickets, attendees and orders of every provider. */
export const TICKET_TYPES = PROVIDERS.map((p) => p.ticketType);
export const ATTENDEE_TYPES = PROVIDERS.map((p) => p.attendeeType);
export const ORDER_TYPES = PROVIDERS.map((p) => p.orderType);

/** A status as stored: aliases mapped, or undefined when the provider has no such status. */
export function normaliseStatus(provider: TicketProvider, status: string): string | undefined {
  const s = status.trim().toLowerCase();
  const mapped = provider.statusAliases[s] ?? s;
  return provider.statuses.includes(mapped) ? mapped : undefined;
}

/** The site setting naming the provider of tickets created without one. */
export const DEFAULT_PROVIDER_OPTION = 'tickets-default-provider';

/** RSVP: free tickets need no payment gateway, so they work on every site. */
export const DEFAULT_PROVIDER_SLUG: ProviderSlug = 'rsvp';

/** The provider named by the site setting (RSVP when unset or naming no provider). */
export async function defaultProvider(ctx: { options: Options }): Promise<TicketProvider> {
  return resolveProvider(await ctx.options.get<unknown>(DEFAULT_PROVIDER_OPTION, DEFAULT_PROVIDER_SLUG)) ?? RSVP;
}
