/**
 * @module namespaces/tickets/test-orders
 * Orders paid while the payment gateway is in test mode (setting `eventsuite_payments_test_mode`):
 * counted, and deleted before launch with their attendees, their seats back on sale.
 */
import type { AppContext } from '../../app-context.js';
import { cancelOrder } from './orders.service.js';

export async function countTestOrders(ctx: AppContext): Promise<number> {
  const row = await ctx.db.selectFrom('ticket_orders').select((eb) => eb.fn.countAll<number>().as('n')).where('test_mode', '=', 1).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Cancels (freeing seats) and deletes every test order, its items and its attendees. Returns how many. */
export async function deleteTestOrders(ctx: AppContext): Promise<number> {
  const ids = (await ctx.db.selectFrom('ticket_orders').select('order_id').where('test_mode', '=', 1).execute()).map((r) => Number(r.order_id));
  for (const id of ids) {
    await cancelOrder(ctx, id);
    await ctx.db.transaction().execute(async (trx) => {
      const attendees = (await trx.selectFrom('ticket_attendees').select('attendee_id').where('order_id', '=', id).execute()).map((r) => Number(r.attendee_id));
      if (attendees.length > 0) {
        await trx.deleteFrom('ticket_attendees').where('attendee_id', 'in', attendees).execute();
        await trx.deleteFrom('posts').where('id', 'in', attendees).execute();
      }
      await trx.deleteFrom('ticket_order_items').where('order_id', '=', id).execute();
      await trx.deleteFrom('ticket_orders').where('order_id', '=', id).execute();
      await trx.deleteFrom('posts').where('id', '=', id).execute();
    });
  }
  return ids.length;
}
