/**
 * @module remote/payment-gateway
 * The payment gateway contract ticket orders are paid through, the built-in offline gateway
 * ("pay at the door") and the factory that picks a gateway by name. The remote gateway, reached over
 * HTTP at `config.remotes.payments` (`REMOTE_PAYMENTS_URL`), lives in `payment-gateway-remote.ts`.
 *
 * @example
 * const gateway = paymentGateway('offline', ctx.config);
 * const result = await gateway.createPayment({ orderId: 41, reference: 'k3y', amount: 24, currency: 'USD', ... });
 * // { ref: 'offline-41', status: 'pending', redirectUrl: '' }
 */
import type { Config } from '../config.js';
import { remotePaymentGateway } from './payment-gateway-remote.js';

/** What an order asks a gateway to collect. */
export interface PaymentRequest {
  orderId: number;
  /** The order's secret key, unique per order (idempotency key for the gateway). */
  reference: string;
  amount: number;
  currency: string;
  description: string;
  customer: { name: string; email: string };
  /** Where the gateway sends the buyer back after paying on its own page. */
  returnUrl: string;
}

/** A payment's state as the gateway reports it. */
export type PaymentStatus = 'succeeded' | 'pending' | 'failed' | 'refunded' | 'cancelled';

export interface PaymentResult {
  /** The gateway's reference of the payment. */
  ref: string;
  status: PaymentStatus;
  /** A page where the buyer completes the payment (pending payments), `''` when none. */
  redirectUrl: string;
}

/** The gateway could not be reached or answered with an error. */
export class PaymentGatewayError extends Error {
  constructor(
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
  }
}

/** One way of collecting money for an order. */
export interface PaymentGateway {
  /** `offline` or `remote`: stored on the order. */
  readonly id: GatewayName;
  /**
   * True when a payment is settled at checkout without any call out (nothing to wait for): the order
   * is completed in the checkout transaction itself.
   */
  readonly settlesAtCheckout: boolean;
  /** Starts collecting a payment. */
  createPayment(request: PaymentRequest): Promise<PaymentResult>;
  /** The current state of a payment. */
  getPayment(ref: string): Promise<PaymentResult>;
  /** Gives money back (the whole payment). */
  refund(ref: string, amount: number): Promise<PaymentResult>;
  /** Abandons a payment that has not completed. */
  cancel(ref: string): Promise<PaymentResult>;
}

export type GatewayName = 'offline' | 'remote';

/** Gateway names a checkout may ask for. */
export const GATEWAY_NAMES: readonly GatewayName[] = Object.freeze(['offline', 'remote']);

/**
 * Pay at the door, when the site offers it: nothing is charged online, so the order stays pending
 * (its seats held, no check-in) until someone with manage access marks it paid; then tickets are
 * issued and e-mailed. Refunds and cancellations are recorded on the order; the money, if any changed
 * hands, is handed back at the desk.
 */
export const offlineGateway: PaymentGateway = Object.freeze({
  id: 'offline' as const,
  settlesAtCheckout: false,
  async createPayment(request: PaymentRequest): Promise<PaymentResult> {
    return { ref: `offline-${request.orderId}`, status: 'pending', redirectUrl: '' };
  },
  async getPayment(ref: string): Promise<PaymentResult> {
    return { ref, status: 'pending', redirectUrl: '' };
  },
  async refund(ref: string): Promise<PaymentResult> {
    return { ref, status: 'refunded', redirectUrl: '' };
  },
  async cancel(ref: string): Promise<PaymentResult> {
    return { ref, status: 'cancelled', redirectUrl: '' };
  },
});

/**
 * The default gateway: the remote one when its endpoint is configured, else offline when the site
 * offers it, else the (unconfigured) remote one, which checkout answers with 503.
 */
export function defaultGatewayName(config: Pick<Config, 'remotes'>, offlineOffered = false): GatewayName {
  return config.remotes.payments || !offlineOffered ? 'remote' : 'offline';
}

/** The gateway called `name`; undefined when it is the remote one and no endpoint is configured. */
export function paymentGateway(name: GatewayName, config: Pick<Config, 'remotes'>): PaymentGateway | undefined {
  if (name === 'offline') return offlineGateway;
  const endpoint = config.remotes.payments;
  return endpoint ? remotePaymentGateway(endpoint) : undefined;
}
