/**
 * @module namespaces/tickets/money
 * Prices and currencies as the originals print them: `"$12.00"` costs, `cost_details`, the attendee's
 * `currency_config` (symbol as an HTML entity) and decimal arithmetic in minor units.
 */

/** Site option holding the currency new tickets are priced in. */
export const CURRENCY_OPTION = 'ticket-commerce-currency-code';
export const DEFAULT_CURRENCY = 'USD';

interface CurrencyInfo {
  symbol: string;
  entity: string;
  position: 'prefix' | 'postfix';
}

const CURRENCIES: Readonly<Record<string, CurrencyInfo>> = Object.freeze({
  AUD: { symbol: '$', entity: '&#x41;&#x24;', position: 'prefix' },
  BRL: { symbol: 'R$', entity: '&#82;&#x24;', position: 'prefix' },
  CAD: { symbol: '$', entity: '&#x24;', position: 'prefix' },
  CHF: { symbol: 'CHF', entity: '&#x43;&#x48;&#x46;', position: 'prefix' },
  CZK: { symbol: 'Kč', entity: '&#75;&#269;', position: 'postfix' },
  DKK: { symbol: 'kr', entity: '&#107;&#114;', position: 'prefix' },
  EUR: { symbol: '€', entity: '&#8364;', position: 'prefix' },
  GBP: { symbol: '£', entity: '&#163;', position: 'prefix' },
  HKD: { symbol: '$', entity: '&#x24;', position: 'prefix' },
  JPY: { symbol: '¥', entity: '&#165;', position: 'prefix' },
  MXN: { symbol: '$', entity: '&#x24;', position: 'prefix' },
  NOK: { symbol: 'kr', entity: '&#107;&#114;', position: 'prefix' },
  NZD: { symbol: '$', entity: '&#x24;', position: 'prefix' },
  PLN: { symbol: 'zł', entity: '&#122;&#322;', position: 'postfix' },
  SEK: { symbol: 'kr', entity: '&#107;&#114;', position: 'prefix' },
  USD: { symbol: '$', entity: '&#x24;', position: 'prefix' },
});

/** Currency codes tickets may be priced in. */
export const CURRENCY_CODES = Object.freeze(Object.keys(CURRENCIES));

const DECIMALS = 2;
const DECIMAL_POINT = '.';
const THOUSANDS_SEP = ',';

function info(code: string): CurrencyInfo {
  return CURRENCIES[code] ?? { symbol: code, entity: code, position: 'prefix' };
}

/** Amounts formatted lately: a list prints the same few prices once per attendee (it showed in profiles). */
const formatted = new Map<number, string>();

/** `12.5` → `"12.50"`, thousands separated. */
export function formatNumber(amount: number): string {
  let text = formatted.get(amount);
  if (text === undefined) {
    const fixed = (Math.round(amount * 100) / 100).toFixed(DECIMALS);
    const [int, frac] = fixed.split('.') as [string, string];
    text = `${int.replace(/\B(?=(\d{3})+(?!\d))/g, THOUSANDS_SEP)}${DECIMAL_POINT}${frac}`;
    if (formatted.size >= 1000) formatted.clear();
    formatted.set(amount, text);
  }
  return text;
}

/** The formatted cost: `"$12.00"` (prefix) or `"12.00zł"` (postfix). */
export function formatCost(amount: number, currency: string): string {
  const c = info(currency);
  const n = formatNumber(amount);
  return c.position === 'prefix' ? `${c.symbol}${n}` : `${n}${c.symbol}`;
}

/** The ticket object's `cost_details`. */
export function costDetails(rawPrice: string | number, currency: string): Record<string, unknown> {
  const c = info(currency);
  return {
    currency_symbol: c.symbol,
    currency_position: c.position,
    values: [rawPrice],
    suffix: null,
    currency_decimal_separator: DECIMAL_POINT,
    currency_decimal_numbers: DECIMALS,
    currency_thousand_separator: THOUSANDS_SEP,
  };
}

/** The attendee's `ticket.currency_config` (symbol as an HTML entity). */
export function currencyConfig(currency: string): Record<string, unknown> {
  const c = info(currency);
  return { symbol: c.entity, placement: c.position, decimal_point: DECIMAL_POINT, thousands_sep: THOUSANDS_SEP, number_of_decimals: DECIMALS };
}

/** The plain currency symbol (an attendee's `payment.currency`). */
export function currencySymbol(currency: string): string {
  return info(currency).symbol;
}

/** A price text as a number; non-numeric text is free (0), as the originals treat it. */
export function priceValue(raw: string): number {
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) ? n : 0;
}

/** `amount × quantity` rounded to cents without float drift. */
export function lineTotal(unit: number, quantity: number): number {
  return Math.round(Math.round(unit * 100) * quantity) / 100;
}

/** Sum of amounts rounded to cents. */
export function sumAmounts(amounts: readonly number[]): number {
  return amounts.reduce((acc, a) => acc + Math.round(a * 100), 0) / 100;
}
