/**
 * @module namespaces/tickets/settings
 * Shop settings kept as site options: whether buyers may pay offline (off by default: the site
 * decides, not the buyer), how long a pending order holds its seats, and how many tickets one line
 * and one order may hold (refused with 400 before any work, so one checkout cannot write 20,000
 * attendees).
 */
import type { AppContext } from '../../app-context.js';
import type { SettingDef } from '../../area.js';

export const OFFLINE_PAYMENTS_OPTION = 'tickets-offline-payments-enabled';
export const RESERVATION_MINUTES_OPTION = 'tickets-reservation-minutes';
export const MAX_PER_LINE_OPTION = 'tickets-max-quantity-per-line';
export const MAX_PER_ORDER_OPTION = 'tickets-max-quantity-per-order';

export const SHOP_DEFAULTS = Object.freeze({ reservationMinutes: 15, maxPerLine: 100, maxPerOrder: 100 });

/** The settings as the area declares them. */
export const SHOP_SETTINGS: Readonly<Record<string, SettingDef>> = {
  [OFFLINE_PAYMENTS_OPTION]: { default: false, description: 'Whether buyers may choose to pay offline (at the door); such orders stay pending until a manager marks them paid.' },
  [RESERVATION_MINUTES_OPTION]: { default: SHOP_DEFAULTS.reservationMinutes, description: 'Minutes a pending order holds its seats before it is cancelled.' },
  [MAX_PER_LINE_OPTION]: { default: SHOP_DEFAULTS.maxPerLine, description: 'Most tickets of one kind one cart or checkout may hold.' },
  [MAX_PER_ORDER_OPTION]: { default: SHOP_DEFAULTS.maxPerOrder, description: 'Most tickets one cart or checkout may hold in all.' },
};

type Options = Pick<AppContext, 'options'>;

function positive(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** True when an administrator allowed offline ("pay at the door") orders. */
export async function offlinePaymentsEnabled(ctx: Options): Promise<boolean> {
  const v = await ctx.options.get<unknown>(OFFLINE_PAYMENTS_OPTION, false);
  return v === true || v === 1 || v === '1' || v === 'yes';
}

/** Minutes a pending order keeps its seats. */
export async function reservationMinutes(ctx: Options): Promise<number> {
  return positive(await ctx.options.get<unknown>(RESERVATION_MINUTES_OPTION, SHOP_DEFAULTS.reservationMinutes), SHOP_DEFAULTS.reservationMinutes);
}

/** Largest quantity of one line and of a whole order (cart or checkout). */
export async function quantityLimits(ctx: Options): Promise<{ perLine: number; perOrder: number }> {
  return {
    perLine: positive(await ctx.options.get<unknown>(MAX_PER_LINE_OPTION, SHOP_DEFAULTS.maxPerLine), SHOP_DEFAULTS.maxPerLine),
    perOrder: positive(await ctx.options.get<unknown>(MAX_PER_ORDER_OPTION, SHOP_DEFAULTS.maxPerOrder), SHOP_DEFAULTS.maxPerOrder),
  };
}
