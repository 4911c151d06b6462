/**
 * @module remote/payment-contract
 * The payment gateway contract: what an order asks a gateway, what a gateway answers, and its error.
 * Shared by the gateways (`payment-gateway.ts`, `payment-gateway-remote.ts`) without an import cycle.
 */

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
  /**
   * False when starting a payment makes no call out (it answers at once): checkout then starts it
   * inside its transaction instead of writing the order twice.
   */
  readonly callsOut?: boolean;
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
