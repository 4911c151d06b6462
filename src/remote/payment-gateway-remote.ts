/**
 * @module remote/payment-gateway-remote
 * A payment gateway reached over HTTP with `fetch`, at the endpoint `REMOTE_PAYMENTS_URL`
 * (`config.remotes.payments`). Credentials may be given in the URL (`https://key:secret@pay.example`);
 * they are sent as HTTP Basic authentication.
 *
 * Protocol (JSON both ways):
 * - `POST {endpoint}/payments` with `{reference, order_id, amount, currency, description, customer:
 *   {name, email}, return_url}` and an `Idempotency-Key` header → `{id, status, redirect_url?}`
 * - `GET {endpoint}/payments/{id}` → `{id, status}`
 * - `POST {endpoint}/payments/{id}/refund` with `{amount}` → `{id, status}`
 * - `POST {endpoint}/payments/{id}/cancel` → `{id, status}`
 *
 * `status` is `succeeded` (also `paid`, `completed`), `pending` (also `processing`,
 * `requires_action`), `failed` (also `declined`), `refunded` or `cancelled` (also `canceled`). Any
 * other answer, a non-2xx status, a network error or a timeout is a {@link PaymentGatewayError}.
 */
import { PaymentGatewayError, type PaymentGateway, type PaymentRequest, type PaymentResult, type PaymentStatus } from './payment-contract.js';

/** How long one gateway call may take. */
export const GATEWAY_TIMEOUT_MS = 10_000;

const STATUS_MAP: Readonly<Record<string, PaymentStatus>> = Object.freeze({
  succeeded: 'succeeded',
  paid: 'succeeded',
  completed: 'succeeded',
  pending: 'pending',
  processing: 'pending',
  requires_action: 'pending',
  failed: 'failed',
  declined: 'failed',
  refunded: 'refunded',
  cancelled: 'cancelled',
  canceled: 'cancelled',
});

function parseResult(body: unknown, fallbackRef: string): PaymentResult {
  if (!body || typeof body !== 'object') throw new PaymentGatewayError('The payment gateway answered without a JSON object.');
  const b = body as Record<string, unknown>;
  const status = typeof b.status === 'string' ? STATUS_MAP[b.status.toLowerCase()] : undefined;
  if (!status) throw new PaymentGatewayError(`The payment gateway answered with an unknown status: ${String(b.status)}`);
  const ref = typeof b.id === 'string' || typeof b.id === 'number' ? String(b.id) : fallbackRef;
  if (ref === '') throw new PaymentGatewayError('The payment gateway answered without a payment id.');
  const redirect = typeof b.redirect_url === 'string' ? b.redirect_url : '';
  return { ref, status, redirectUrl: redirect };
}

/** A gateway client for `endpoint`. */
export function remotePaymentGateway(endpoint: string, fetchImpl: typeof fetch = fetch): PaymentGateway {
  const url = new URL(endpoint);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const base = url.toString().replace(/\/+$/, '');

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, extra: Record<string, string> = {}): Promise<unknown> {
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, {
        method,
        headers: { ...headers, ...extra, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
    } catch (e) {
      throw new PaymentGatewayError(`The payment gateway could not be reached: ${e instanceof Error ? e.message : String(e)}`);
    }
    const text = await res.text();
    if (!res.ok) throw new PaymentGatewayError(`The payment gateway answered ${res.status}.`, res.status);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new PaymentGatewayError('The payment gateway answered with invalid JSON.', res.status);
    }
  }

  const paymentPath = (ref: string) => `/payments/${encodeURIComponent(ref)}`;

  return {
    id: 'remote',
    settlesAtCheckout: false,
    async createPayment(request: PaymentRequest) {
      const body = await call(
        'POST',
        '/payments',
        {
          reference: request.reference,
          order_id: request.orderId,
          amount: request.amount.toFixed(2),
          currency: request.currency,
          description: request.description,
          customer: request.customer,
          return_url: request.returnUrl,
        },
        { 'idempotency-key': request.reference },
      );
      return parseResult(body, '');
    },
    async getPayment(ref: string) {
      return parseResult(await call('GET', paymentPath(ref)), ref);
    },
    async refund(ref: string, amount: number) {
      return parseResult(await call('POST', `${paymentPath(ref)}/refund`, { amount: amount.toFixed(2) }), ref);
    },
    async cancel(ref: string) {
      return parseResult(await call('POST', `${paymentPath(ref)}/cancel`, {}), ref);
    },
  };
}
