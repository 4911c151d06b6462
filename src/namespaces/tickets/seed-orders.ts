/**
 * @module namespaces/tickets/seed-orders
 * Realistic ticket-shop orders for benchmarks and demos: registered customers and guests (about one
 * customer per five orders, a few loyal ones with many orders), dates spread over the last year,
 * mostly completed orders with some refunded, cancelled and a few pending, one or two ticket lines of
 * one to four seats, a coupon now and then. Orders, items and attendees are the rows a checkout
 * writes (posts, `ticket_orders`, `ticket_order_items`, `ticket_attendees`), with the same money
 * rules, in multi-row inserts, one transaction per batch; seats sold and coupon uses are counted at
 * the end. Deterministic for a given `seed` apart from the run's own tag (logins, codes).
 *
 * @example
 * await seedOrders(ctx, { orders: 100_000 }); // then shop-analytics' rebuildShopAnalytics(ctx)
 */
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { postDatePair } from '../../content/post-dates.js';
import { siteTimeZone, toDbDate } from '../../content/posts.js';
import type { Db } from '../../storage/db.js';
import { saveEvent } from '../events/index.js';
import { createCoupon, discountOf, type CouponRecord } from './coupons.repo.js';
import { lineTotal, priceValue, sumAmounts } from './money.js';
import type { OrderStatus } from './orders.repo.js';
import { TRIBE_COMMERCE } from './providers.js';
import { addTicket } from './tickets.public.js';
import { seededRandom } from '../../seeded-random.js';

export interface OrderSeedOptions {
  orders: number;
  /** Distinct customers (default: one per five orders, at least one). */
  customers?: number;
  /** Share of customers with an account (default 0.4); the others buy as guests. */
  registeredShare?: number;
  /** Orders spread over this many days back from now (default 365). */
  days?: number;
  /** Orders per transaction (default 1000). */
  batchSize?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface OrderSeedResult {
  orders: number;
  customers: number;
  registered: number;
  attendees: number;
  events: number;
  tickets: number;
  coupons: number;
  ms: number;
}

const FIRST = ['Maria', 'James', 'Aisha', 'Chen', 'Lucas', 'Sofia', 'Noah', 'Emma', 'Mateo', 'Olivia', 'Yuki', 'Liam', 'Fatima', 'Ethan', 'Ana', 'Oscar', 'Mia', 'David', 'Lea', 'Omar', 'Grace', 'Ivan', 'Nora', 'Samuel', 'Zoe', 'Arjun', 'Elena', 'Tom', 'Hana', 'Felix'];
const LAST = ['Garcia', 'Smith', 'Khan', 'Wang', 'Silva', 'Rossi', 'Brown', 'Müller', 'Lopez', 'Jones', 'Tanaka', 'Murphy', 'Hassan', 'Wilson', 'Costa', 'Novak', 'Dubois', 'Cohen', 'Kowalski', 'Ali', 'Taylor', 'Petrov', 'Larsen', 'Okafor', 'Nguyen', 'Patel', 'Schmidt', 'Moreau', 'Sato', 'Walsh'];
const SHOWS = ['Harbour Lights Festival', 'Midnight Jazz Session', 'Spring Food Market', 'City Marathon Expo', 'Open-Air Cinema', 'Robotics Fair', 'Folk Night', 'Comedy Cellar', 'Chamber Choir Concert', 'Craft Beer Tasting', 'Poetry Slam', 'Riverside Salsa', 'Science Week', 'Book Fair', 'Winter Gala', 'Kids Theatre', 'Photography Walk', 'Opera in the Park', 'Tech Meetup Live', 'Charity Run'];
const PRICES = ['8.00', '12.50', '15.00', '19.99', '24.00', '29.50', '35.00', '42.00', '55.00', '85.00'];
const COUPONS: readonly { code: string; discountType: 'percent' | 'fixed_cart'; amount: number }[] = [
  { code: 'early10', discountType: 'percent', amount: 10 },
  { code: 'friends15', discountType: 'percent', amount: 15 },
  { code: 'student20', discountType: 'percent', amount: 20 },
  { code: 'five-off', discountType: 'fixed_cart', amount: 5 },
  { code: 'welcome3', discountType: 'fixed_cart', amount: 3 },
  { code: 'vip25', discountType: 'percent', amount: 25 },
];

const DAY_MS = 86_400_000;

interface Customer {
  name: string;
  email: string;
  userId: number;
}

interface Ticket {
  id: number;
  postId: number;
  title: string;
  price: string;
  currency: string;
}

/** Inserts posts in one statement; their IDs in the same order (matched by their unique random slugs). */
async function insertPosts(db: Db, rows: { type: string; title: string; author: number; when: { local: string; gmt: string } }[]): Promise<number[]> {
  const slugs = rows.map((r) => `${r.type.replace(/^tribe_/, '').replace(/_/g, '-')}-${crypto.randomBytes(8).toString('hex')}`);
  const ids = new Map<string, number>();
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const inserted = await db
      .insertInto('posts')
      .values(part.map((r, j) => ({
        type: r.type, status: 'publish', slug: slugs[i + j]!, title: r.title, content: '', excerpt: '', author: r.author, parent: 0, password: '', menu_order: 0,
        date: r.when.local, date_gmt: r.when.gmt, modified: r.when.local, modified_gmt: r.when.gmt, image_url: '',
      })))
      .returning(['id', 'slug'])
      .execute();
    for (const p of inserted) ids.set(p.slug, Number(p.id));
  }
  return slugs.map((s) => ids.get(s)!);
}

async function insertChunked<R extends Record<string, unknown>>(rows: R[], size: number, insert: (part: R[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Events with a paid, unlimited ticket each, made through the events and tickets services. */
async function seedTickets(ctx: AppContext, tag: string, rnd: () => number): Promise<Ticket[]> {
  const author = (await ctx.db.selectFrom('users').select('id').where('roles', 'like', '%administrator%').orderBy('id').executeTakeFirst())?.id ?? 0;
  const tickets: Ticket[] = [];
  for (let i = 0; i < SHOWS.length; i++) {
    const start = DateTime.utc().plus({ days: 30 + Math.floor(rnd() * 300) }).set({ hour: 19, minute: 0, second: 0 });
    const eventId = await saveEvent(ctx, { title: `${SHOWS[i]} (${tag})`, status: 'publish', start_date: toDbDate(start), end_date: toDbDate(start.plus({ hours: 3 })), timezone: 'UTC' }, null);
    const price = PRICES[i % PRICES.length]!;
    const ticketId = await addTicket(ctx, Number(author), { postId: eventId, name: i % 3 === 0 ? 'VIP' : 'General admission', price, provider: TRIBE_COMMERCE.slug });
    if (typeof ticketId !== 'number') throw new Error(`seed: could not create a ticket for event ${eventId}: ${ticketId ? ticketId.message : 'no such post'}`);
    const row = await ctx.db.selectFrom('ticket_details').select(['currency']).where('ticket_id', '=', ticketId).executeTakeFirstOrThrow();
    tickets.push({ id: ticketId, postId: eventId, title: `${i % 3 === 0 ? 'VIP' : 'General admission'}`, price, currency: row.currency });
  }
  return tickets;
}

/** Customers: accounts (users with the `customer` role and no password) and guests. */
async function seedCustomers(db: Db, count: number, registeredShare: number, tag: string, rnd: () => number, registeredGmt: (i: number) => string): Promise<Customer[]> {
  const customers: Customer[] = [];
  const users: { login: string; email: string; display_name: string; nicename: string; registered_gmt: string }[] = [];
  for (let i = 0; i < count; i++) {
    const first = FIRST[Math.floor(rnd() * FIRST.length)]!;
    const last = LAST[Math.floor(rnd() * LAST.length)]!;
    const local = `${first}.${last}.${tag}${i}`.toLowerCase().replace(/ü/g, 'u');
    const email = `${local}@example.test`;
    const registered = rnd() < registeredShare;
    customers.push({ name: `${first} ${last}`, email, userId: registered ? -1 : 0 });
    if (registered) users.push({ login: local, email, display_name: `${first} ${last}`, nicename: local.replace(/\./g, '-'), registered_gmt: registeredGmt(i) });
  }
  const ids = new Map<string, number>();
  await insertChunked(users, 1000, async (part) => {
    const rows = await db
      .insertInto('users')
      .values(part.map((u) => ({ ...u, password_hash: '', url: '', roles: JSON.stringify(['customer']), session_version: 0 })))
      .returning(['id', 'login'])
      .execute();
    for (const r of rows) ids.set(r.login, Number(r.id));
  });
  for (const c of customers) if (c.userId === -1) c.userId = ids.get(c.email.replace(/@example\.test$/, ''))!;
  return customers;
}

/** The status of an order placed `ageDays` ago: settled orders mostly; pending only in the last minutes. */
function statusFor(rnd: () => number, ageMs: number): OrderStatus {
  if (ageMs < 10 * 60_000) return rnd() < 0.5 ? 'pending' : 'completed';
  const r = rnd();
  return r < 0.06 ? 'refunded' : r < 0.13 ? 'cancelled' : 'completed';
}

export async function seedOrders(ctx: AppContext, options: OrderSeedOptions): Promise<OrderSeedResult> {
  const started = Date.now();
  const total = options.orders;
  const customerCount = Math.max(1, Math.min(total, options.customers ?? Math.round(total / 5)));
  const days = options.days ?? 365;
  const batchSize = options.batchSize ?? 1000;
  const rnd = seededRandom(options.seed ?? 1);
  const tag = crypto.randomBytes(2).toString('hex');
  const zone = await siteTimeZone(ctx.options);
  const now = ctx.now().getTime();

  // ---- Who buys when: every customer once, the rest skewed towards a loyal few; dates over `days`.
  const buyer = new Int32Array(total);
  const at = new Float64Array(total);
  for (let i = 0; i < total; i++) {
    buyer[i] = i < customerCount ? i : Math.floor(customerCount * rnd() ** 1.3);
    at[i] = now - rnd() * days * DAY_MS;
  }
  // The newest handful are minutes old (the only ones that may still be pending).
  for (let i = 0; i < Math.min(20, total); i++) at[Math.floor(rnd() * total)] = now - rnd() * 9 * 60_000;
  at.sort();
  const firstOrder = new Float64Array(customerCount).fill(Number.POSITIVE_INFINITY);
  for (let i = 0; i < total; i++) firstOrder[buyer[i]!] = Math.min(firstOrder[buyer[i]!]!, at[i]!);
  const gmt = (ms: number) => toDbDate(DateTime.fromMillis(ms, { zone: 'utc' }));
  // Accounts are opened some days before their first order.
  const customers = await seedCustomers(ctx.db, customerCount, options.registeredShare ?? 0.4, tag, rnd, (i) => gmt(firstOrder[i]! - rnd() * 60 * DAY_MS));

  const tickets = await seedTickets(ctx, tag, rnd);
  const coupons: CouponRecord[] = [];
  for (const c of COUPONS) {
    const id = await createCoupon(ctx.db, { ...c, code: `${c.code}-${tag}` }, gmt(now - days * DAY_MS));
    coupons.push({ id, code: `${c.code}-${tag}`, discountType: c.discountType, amount: c.amount, usageLimit: 0, usageCount: 0, expiresGmt: '' });
  }

  let attendees = 0;
  for (let from = 0; from < total; from += batchSize) {
    const n = Math.min(batchSize, total - from);
    const orders = Array.from({ length: n }, (_, k) => {
      const i = from + k;
      const customer = customers[buyer[i]!]!;
      const when = postDatePair(new Date(at[i]!), zone);
      const status = statusFor(rnd, now - at[i]!);
      const first = Math.floor(rnd() * tickets.length);
      const lineTickets = rnd() < 0.2 ? [tickets[first]!, tickets[(first + 1 + Math.floor(rnd() * (tickets.length - 1))) % tickets.length]!] : [tickets[first]!];
      const items = lineTickets.sort((a, b) => a.id - b.id).map((t) => {
        const r = rnd();
        const quantity = r < 0.45 ? 1 : r < 0.8 ? 2 : r < 0.9 ? 3 : 4;
        const unit = priceValue(t.price);
        return { ticket: t, quantity, unitPrice: unit, total: lineTotal(unit, quantity) };
      });
      const subtotal = sumAmounts(items.map((it) => it.total));
      const coupon = rnd() < 0.12 ? coupons[Math.floor(rnd() * coupons.length)] : undefined;
      const discount = coupon ? discountOf(coupon, subtotal) : 0;
      const closedGmt = gmt(Math.min(now, at[i]! + (1 + rnd() * 20) * DAY_MS));
      return { customer, when, status, items, subtotal, coupon, discount, total: sumAmounts([subtotal, -discount]), closedGmt };
    });
    await ctx.db.transaction().execute(async (trx) => {
      const orderIds = await insertPosts(trx, orders.map((o) => ({ type: TRIBE_COMMERCE.orderType, title: `Order for ${o.customer.name}`, author: o.customer.userId, when: o.when })));
      await insertChunked(orders.map((o, k) => ({
        order_id: orderIds[k]!,
        order_key: crypto.randomBytes(16).toString('hex'),
        provider: TRIBE_COMMERCE.slug,
        status: o.status,
        gateway: 'offline',
        currency: o.items[0]!.ticket.currency,
        quantity: o.items.reduce((q, it) => q + it.quantity, 0),
        subtotal: o.subtotal,
        total: o.total,
        coupon_id: o.coupon?.id ?? 0,
        coupon_code: o.coupon?.code ?? '',
        discount: o.discount,
        customer_name: o.customer.name,
        customer_email: o.customer.email,
        customer_user_id: o.customer.userId,
        cart_key: '',
        created_gmt: o.when.gmt,
        updated_gmt: o.status === 'completed' || o.status === 'pending' ? o.when.gmt : o.closedGmt,
        completed_gmt: o.status === 'pending' ? '' : o.when.gmt,
        refunded_gmt: o.status === 'refunded' ? o.closedGmt : '',
        cancelled_gmt: o.status === 'cancelled' ? o.closedGmt : '',
      })), 500, (part) => trx.insertInto('ticket_orders').values(part).execute());
      await insertChunked(orders.flatMap((o, k) => o.items.map((it) => ({
        order_id: orderIds[k]!, ticket_id: it.ticket.id, post_id: it.ticket.postId, ticket_title: it.ticket.title, quantity: it.quantity, unit_price: it.unitPrice, total: it.total,
      }))), 1000, (part) => trx.insertInto('ticket_order_items').values(part).execute());
      // One attendee per seat, as the checkout writes them.
      const seats = orders.flatMap((o, k) => o.items.flatMap((it) => Array.from({ length: it.quantity }, () => ({ o, it, orderId: orderIds[k]! }))));
      const attendeeIds = await insertPosts(trx, seats.map((s) => ({ type: TRIBE_COMMERCE.attendeeType, title: s.o.customer.name, author: s.o.customer.userId, when: s.o.when })));
      await insertChunked(seats.map((s, k) => ({
        attendee_id: attendeeIds[k]!,
        ticket_id: s.it.ticket.id,
        post_id: s.it.ticket.postId,
        provider: TRIBE_COMMERCE.slug,
        order_id: s.orderId,
        order_status: s.o.status,
        holder_name: s.o.customer.name,
        holder_email: s.o.customer.email,
        purchaser_name: s.o.customer.name,
        purchaser_email: s.o.customer.email,
        user_id: s.o.customer.userId,
        optout: 0,
        security_code: crypto.randomBytes(5).toString('hex'),
        price: s.it.unitPrice,
        currency: s.it.ticket.currency,
        information: '{}',
        source: 'checkout',
      })), 500, (part) => trx.insertInto('ticket_attendees').values(part).execute());
      attendees += seats.length;
    });
    options.onProgress?.(from + n, total);
  }

  // ---- Seats held (completed and pending orders) and coupon uses (orders not cancelled).
  await ctx.db.transaction().execute(async (trx) => {
    for (const t of tickets) {
      const held = (status: string[]) => trx.selectFrom('ticket_order_items as i').innerJoin('ticket_orders as o', 'o.order_id', 'i.order_id')
        .select(sql<number>`coalesce(sum(i.quantity), 0)`.as('n')).where('i.ticket_id', '=', t.id).where('o.status', 'in', status).executeTakeFirstOrThrow();
      const sold = Number((await held(['completed', 'pending'])).n);
      const pending = Number((await held(['pending'])).n);
      await trx.updateTable('ticket_details').set({ sold, pending }).where('ticket_id', '=', t.id).execute();
    }
    for (const c of coupons) {
      const used = await trx.selectFrom('ticket_orders').select((eb) => eb.fn.countAll<number>().as('n')).where('coupon_id', '=', c.id).where('status', '<>', 'cancelled').executeTakeFirstOrThrow();
      await trx.updateTable('ticket_coupons').set({ usage_count: Number(used.n) }).where('id', '=', c.id).execute();
    }
  });

  return {
    orders: total,
    customers: customerCount,
    registered: customers.filter((c) => c.userId > 0).length,
    attendees,
    events: tickets.length,
    tickets: tickets.length,
    coupons: coupons.length,
    ms: Date.now() - started,
  };
}
