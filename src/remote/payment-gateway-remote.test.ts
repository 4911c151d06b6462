import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGatewayName, offlineGateway, paymentGateway, PaymentGatewayError } from './payment-gateway.js';
import { remotePaymentGateway } from './payment-gateway-remote.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('remote payment gateway', () => {
  let server: http.Server;
  let base: string;
  const seen: Seen[] = [];
  let answer: { status: number; body: string } = { status: 200, body: '{}' };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const request = {
    orderId: 41, reference: 'k3y', amount: 24.5, currency: 'EUR', description: '2 × Seat',
    customer: { name: 'Pat', email: 'pat@example.test' }, returnUrl: 'http://example.test/back',
  };

  it('creates a payment with JSON, Basic credentials from the URL and an idempotency key', async () => {
    answer = { status: 201, body: JSON.stringify({ id: 'pay_1', status: 'requires_action', redirect_url: 'https://pay.example/1' }) };
    const gw = remotePaymentGateway(`${base.replace('http://', 'http://shop:s3cret@')}/`);
    const result = await gw.createPayment(request);
    expect(result).toEqual({ ref: 'pay_1', status: 'pending', redirectUrl: 'https://pay.example/1' });
    const call = seen.at(-1)!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/payments');
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from('shop:s3cret').toString('base64')}`);
    expect(call.headers['idempotency-key']).toBe('k3y');
    expect(JSON.parse(call.body)).toEqual({
      reference: 'k3y', order_id: 41, amount: '24.50', currency: 'EUR', description: '2 × Seat',
      customer: { name: 'Pat', email: 'pat@example.test' }, return_url: 'http://example.test/back',
    });
  });

  it('reads, refunds and cancels payments, mapping the status names', async () => {
    const gw = remotePaymentGateway(base);
    answer = { status: 200, body: JSON.stringify({ id: 'pay_1', status: 'paid' }) };
    expect(await gw.getPayment('pay_1')).toEqual({ ref: 'pay_1', status: 'succeeded', redirectUrl: '' });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/payments/pay_1' });
    answer = { status: 200, body: JSON.stringify({ status: 'refunded' }) };
    expect((await gw.refund('pay/1', 24.5)).ref).toBe('pay/1');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/payments/pay%2F1/refund', body: '{"amount":"24.50"}' });
    answer = { status: 200, body: JSON.stringify({ id: 'pay_1', status: 'canceled' }) };
    expect((await gw.cancel('pay_1')).status).toBe('cancelled');
  });

  it('turns HTTP errors, bad JSON, unknown statuses and unreachable hosts into PaymentGatewayError', async () => {
    const gw = remotePaymentGateway(base);
    answer = { status: 503, body: '{}' };
    await expect(gw.getPayment('x')).rejects.toMatchObject({ name: 'PaymentGatewayError', httpStatus: 503 });
    answer = { status: 200, body: 'not json' };
    await expect(gw.getPayment('x')).rejects.toBeInstanceOf(PaymentGatewayError);
    answer = { status: 200, body: JSON.stringify({ id: 'x', status: 'weird' }) };
    await expect(gw.getPayment('x')).rejects.toThrow(/unknown status/);
    answer = { status: 200, body: JSON.stringify({ status: 'succeeded' }) };
    await expect(gw.createPayment(request)).rejects.toThrow(/without a payment id/);
    await expect(remotePaymentGateway('http://127.0.0.1:1').getPayment('x')).rejects.toThrow(/could not be reached/);
  });

  it('picks the gateway by name and configuration; offline settles at checkout', async () => {
    expect(defaultGatewayName({ remotes: {} })).toBe('remote');
    expect(defaultGatewayName({ remotes: {} }, true)).toBe('offline');
    expect(defaultGatewayName({ remotes: { payments: base } }, true)).toBe('remote');
    expect(defaultGatewayName({ remotes: { payments: base } })).toBe('remote');
    expect(paymentGateway('remote', { remotes: {} })).toBeUndefined();
    expect(paymentGateway('remote', { remotes: { payments: base } })?.settlesAtCheckout).toBe(false);
    expect(paymentGateway('offline', { remotes: {} })).toBe(offlineGateway);
    expect(await offlineGateway.createPayment(request)).toEqual({ ref: 'offline-41', status: 'pending', redirectUrl: '' });
    expect((await offlineGateway.refund('offline-41', 1)).status).toBe('refunded');
  });
});
