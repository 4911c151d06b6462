/**
 * @module namespaces/tickets/coupons.repo
 * Coupons of the ticket shop. A checkout claims a use with one conditional UPDATE inside its
 * transaction (`usage_count < usage_limit`, not expired), so concurrent checkouts can never use a
 * coupon beyond its limit; a cancelled order gives its use back.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { lineTotal } from './money.js';

export type DiscountType = 'percent' | 'fixed_cart';

export interface CouponRecord {
  id: number;
  code: string;
  discountType: DiscountType;
  amount: number;
  usageLimit: number;
  usageCount: number;
  expiresGmt: string;
}

export interface NewCoupon {
  code: string;
  discountType: DiscountType;
  amount: number;
  /** 0 = unlimited. */
  usageLimit?: number;
  /** UTC `YYYY-MM-DD HH:MM:SS`; empty = never. */
  expiresGmt?: string;
}

/** Thrown inside a checkout transaction when the coupon cannot be used (rolls the order back). */
export class CouponError extends Error {}

export const COUPON_MESSAGES = {
  unknown: (code: string) => `Coupon "${code}" does not exist!`,
  expired: 'This coupon has expired.',
  usedUp: 'Coupon usage limit has been reached.',
} as const;

const normal = (code: string) => code.trim().toLowerCase();

export async function createCoupon(db: Db, coupon: NewCoupon, nowGmt: string): Promise<number> {
  const row = await db
    .insertInto('ticket_coupons')
    .values({
      code: normal(coupon.code),
      discount_type: coupon.discountType,
      amount: coupon.amount,
      usage_limit: coupon.usageLimit ?? 0,
      expires_gmt: coupon.expiresGmt ?? '',
      created_gmt: nowGmt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function getCouponByCode(db: Db, code: string): Promise<CouponRecord | undefined> {
  const r = await db.selectFrom('ticket_coupons').selectAll().where('code', '=', normal(code)).executeTakeFirst();
  return r && { id: Number(r.id), code: r.code, discountType: r.discount_type as DiscountType, amount: Number(r.amount), usageLimit: Number(r.usage_limit), usageCount: Number(r.usage_count), expiresGmt: r.expires_gmt };
}

/** Why `coupon` cannot be used now, or undefined when it can. */
export function couponProblem(code: string, coupon: CouponRecord | undefined, nowGmt: string): string | undefined {
  if (!coupon) return COUPON_MESSAGES.unknown(code);
  if (coupon.expiresGmt !== '' && coupon.expiresGmt <= nowGmt) return COUPON_MESSAGES.expired;
  if (coupon.usageLimit > 0 && coupon.usageCount >= coupon.usageLimit) return COUPON_MESSAGES.usedUp;
  return undefined;
}

/** Takes one use of the coupon, or throws {@link CouponError} when it is used up or expired meanwhile. */
export async function claimCoupon(trx: Db, coupon: CouponRecord, nowGmt: string): Promise<void> {
  const res = await trx
    .updateTable('ticket_coupons')
    .set({ usage_count: sql<number>`usage_count + 1` })
    .where('id', '=', coupon.id)
    .where((eb) => eb.or([eb('usage_limit', '=', 0), eb('usage_count', '<', eb.ref('usage_limit'))]))
    .where((eb) => eb.or([eb('expires_gmt', '=', ''), eb('expires_gmt', '>', nowGmt)]))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new CouponError(COUPON_MESSAGES.usedUp);
}

/** Gives a use back (a cancelled order). */
export async function releaseCoupon(trx: Db, couponId: number): Promise<void> {
  await trx.updateTable('ticket_coupons').set({ usage_count: sql<number>`usage_count - 1` }).where('id', '=', couponId).where('usage_count', '>', 0).execute();
}

/** The discount `coupon` gives on `subtotal`, never more than the subtotal. */
export function discountOf(coupon: CouponRecord, subtotal: number): number {
  const raw = coupon.discountType === 'percent' ? lineTotal(subtotal, Math.min(coupon.amount, 100) / 100) : coupon.amount;
  return Math.min(Math.round(raw * 100) / 100, subtotal);
}
