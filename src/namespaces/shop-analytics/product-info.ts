/**
 * @module namespaces/shop-analytics/product-info
 * The `extended_info` of a product report row, for tickets: name, price, stock as the ticket's
 * capacity gives it, the event's permalink and categories (a ticket has no image, variations or
 * low-stock threshold of its own). Three queries for a page of rows.
 */
import type { AppContext } from '../../app-context.js';
import { getPostsByIds } from '../../content/posts.js';
import { loadTickets, ticketStock } from '../tickets/index.js';
import { CATEGORY_TAXONOMY } from './leaderboards.repo.js';

export async function productInfo(ctx: AppContext, ticketIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  const tickets = await loadTickets(ctx.db, ticketIds);
  const eventIds = [...new Set([...tickets.values()].map((t) => t.postId))];
  const events = await getPostsByIds(ctx.db, eventIds);
  const categoryIds = new Map<number, number[]>();
  if (eventIds.length > 0) {
    const rows = await ctx.db
      .selectFrom('term_relationships as tr')
      .innerJoin('terms as t', 't.id', 'tr.term_id')
      .select(['tr.post_id', 'tr.term_id'])
      .where('t.taxonomy', '=', CATEGORY_TAXONOMY)
      .where('tr.post_id', 'in', eventIds)
      .orderBy('tr.term_id')
      .execute();
    for (const r of rows) categoryIds.set(Number(r.post_id), [...(categoryIds.get(Number(r.post_id)) ?? []), Number(r.term_id)]);
  }
  const out = new Map<number, Record<string, unknown>>();
  for (const [id, t] of tickets) {
    const { available } = ticketStock(t);
    const event = events.get(t.postId);
    out.set(id, {
      name: t.post.title.replace(/<[^>]*>/g, ''),
      price: Number(t.price) || 0,
      image: '',
      permalink: event ? ctx.urls.permalink(event) : '',
      stock_status: available === 0 ? 'outofstock' : 'instock',
      stock_quantity: available === -1 ? null : available,
      low_stock_amount: null,
      manage_stock: available !== -1,
      category_ids: categoryIds.get(t.postId) ?? [],
      variations: [],
      sku: t.sku,
    });
  }
  return out;
}
