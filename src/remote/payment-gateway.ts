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
import type { GatewayName, PaymentGateway, PaymentRequest, PaymentResult } from './payment-contract.js';
import { remotePaymentGateway } from './payment-gateway-remote.js';

export * from './payment-contract.js';

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
  callsOut: false,
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
