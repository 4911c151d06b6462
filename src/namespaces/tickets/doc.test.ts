import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { NS } from './fixtures.case.js';

describe.each(DIALECTS)('tickets namespace documents on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  describe('GET /eventsuite/tickets/v1/doc', () => {
    it('answers an OpenAPI 3.0.0 document in the original key order with its paths and schemas', async () => {
      const res = await t.request('GET', `${NS}/doc`);
      expect(res.status).toBe(200);
      const doc = res.body;
      expect(Object.keys(doc)).toEqual(['openapi', 'info', 'servers', 'paths', 'components']);
      expect(doc.openapi).toBe('3.0.0');
      expect(doc.info).toEqual({
        version: '1.0.0',
        title: 'Event Tickets REST API',
        description: 'Event Tickets REST API allows accessing ticket information easily and conveniently.',
      });
      expect(doc.servers).toEqual([{ url: 'http://example.test/wp-json/eventsuite/tickets/v1' }]);
      expect(Object.keys(doc.paths)).toEqual(['/doc', '/tickets/{id}', '/tickets', '/cart', '/attendees/{id}', '/attendees']);
      expect(Object.keys(doc.components.schemas)).toEqual([
        'Image', 'ImageSize', 'DateDetails', 'CostDetails', 'CapacityDetails', 'CheckinDetails', 'PaymentDetails', 'RSVPReport',
        'CheckinReport', 'Ticket', 'Attendee', 'QR',
      ]);
      expect(doc.components.schemas.Ticket.properties.provider.enum).toEqual(['rsvp', 'tribe-commerce', 'woo', 'edd']);
    });

    it('derives parameters and bodies from the route declarations', async () => {
      const { paths } = (await t.request('GET', `${NS}/doc`)).body;
      const list = paths['/tickets'].get.parameters;
      expect(list.find((p: any) => p.name === 'per_page')).toEqual({
        name: 'per_page',
        in: 'query',
        description: 'How many tickets to return per results page; defaults to posts_per_page.',
        schema: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
        required: false,
      });
      expect(list.find((p: any) => p.name === 'provider')).toMatchObject({
        schema: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
        style: 'form',
        explode: false,
      });
      expect(paths['/tickets/{id}'].get.parameters).toEqual([
        { name: 'id', in: 'path', description: 'The ticket post ID', schema: { type: 'integer' }, required: true },
      ]);
      const cart = paths['/cart'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
      expect(cart.required).toEqual(['provider']);
      expect(Object.keys(cart.properties)).toEqual(['provider', 'tickets', 'meta', 'post_id']);
      expect(paths['/attendees'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Attendee' });
      expect(paths).not.toHaveProperty('/qr');
    });
  });

  describe('GET /eventsuite/tickets/v1 (namespace index)', () => {
    it('lists every route of the interface with the spec defaults, bounds and enums', async () => {
      const { routes } = (await t.request('GET', NS)).body;
      const key = (p: string) => `/eventsuite/tickets/v1${p}`;
      expect(Object.keys(routes)).toEqual(
        [
          '', '/doc', '/tickets/(?P<id>[\\d]+)', '/tickets', '/attendees/(?P<id>[\\d]+)', '/attendees', '/cart', '/qr/(?P<id>[\\d]+)', '/qr',
          '/attendees/(?P<id>[\\d]+)/qr', '/orders', '/orders/(?P<id>[\\d]+)',
        ].map(key),
      );
      expect(routes[key('/tickets/(?P<id>[\\d]+)')].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      const tickets = routes[key('/tickets')].endpoints;
      expect(tickets[0].args.order).toMatchObject({ type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' });
      expect(tickets[0].args.orderby).toMatchObject({ enum: ['id', 'include', 'title', 'slug'], default: 'title' });
      expect(tickets[0].args.page).toMatchObject({ type: 'integer', default: 1, minimum: 1 });
      expect(tickets[0].args.per_page).toMatchObject({ type: 'integer', default: 10, minimum: 1, maximum: 100 });
      expect(tickets[0].args.post_status).toMatchObject({ default: 'publish', required: false });
      expect(Object.keys(tickets[0].args)).toHaveLength(26);
      expect(tickets[1]).toEqual({ methods: ['POST'], args: { description: expect.objectContaining({ type: 'string', default: '', required: false }) } });
      const attendees = routes[key('/attendees')].endpoints;
      expect(attendees[0].args.orderby).toMatchObject({ enum: ['id', 'date', 'include', 'title', 'slug'], default: 'id' });
      expect(Object.keys(attendees[0].args)).toHaveLength(27);
      expect(Object.entries(attendees[1].args).filter(([, a]: any) => a.required).map(([n]) => n)).toEqual(['ticket_id', 'full_name', 'email']);
      expect(routes[key('/attendees/(?P<id>[\\d]+)')].endpoints[1].args.check_in).toMatchObject({ type: 'boolean' });
      const cart = routes[key('/cart')].endpoints;
      expect(cart[1].methods).toEqual(['POST', 'PUT', 'PATCH']);
      expect(cart[1].args.provider.required).toBe(true);
      expect(cart[1].args.tickets).toMatchObject({ default: null });
      const qr = routes[key('/qr')].endpoints[0].args;
      expect(Object.entries(qr).map(([n, a]: any) => [n, a.type, a.required])).toEqual([
        ['api_key', 'string', true], ['ticket_id', 'string', true], ['security_code', 'string', true],
      ]);
      expect(qr.api_key).not.toHaveProperty('default');
    });
  });
});
