/**
 * @module namespaces/shop-analytics/money
 * Amounts as the original's `wc_price()` HTML in the shop currency (the ticket shop's currency).
 */
import type { AppContext } from '../../app-context.js';
import { CURRENCY_OPTION, DEFAULT_CURRENCY, currencyConfig, formatNumber } from '../tickets/index.js';

/** The shop currency code. */
export async function shopCurrency(ctx: Pick<AppContext, 'options'>): Promise<string> {
  const code = await ctx.options.get<unknown>(CURRENCY_OPTION, DEFAULT_CURRENCY);
  return typeof code === 'string' && code !== '' ? code : DEFAULT_CURRENCY;
}

/** `wc_price($amount)`: the amount in its price spans, the symbol as an HTML entity. */
export function wcPrice(amount: number, currency: string): string {
  const c = currencyConfig(currency) as { symbol: string; placement: string };
  const symbol = `<span class="woocommerce-Price-currencySymbol">${c.symbol}</span>`;
  const n = formatNumber(Math.abs(amount));
  const body = c.placement === 'postfix' ? `${n}${symbol}` : `${symbol}${n}`;
  return `<span class="woocommerce-Price-amount amount"><bdi>${amount < 0 ? '-' : ''}${body}</bdi></span>`;
}
