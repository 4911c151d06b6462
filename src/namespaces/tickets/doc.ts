/**
 * @module namespaces/tickets/doc
 * The namespace's `/doc` document (ET `REST/V1/Endpoints/Swagger_Documentation.php`): OpenAPI 3.0.0
 * with the original's key order (`openapi, info, servers, paths, components`), paths and schemas: the
 * configuration of `rest/openapi.ts`'s namespace document, which generates parameters and request
 * bodies from the route declarations; only response texts and the object schemas are written here. As upstream, the QR routes are not documented (nor the
 * `/orders` checkout, which the originals do not have).
 */
import type { AppContext } from '../../app-context.js';
import { namespaceDocument, type NamespaceDocOptions } from '../../rest/openapi.js';
import type { RouteDef } from '../../rest/route.js';
import { ticketsUrl } from './common.js';
import { LIST_ARGS } from './ticket-args.js';

/** Documented paths, in the original's order. */
export const DOC_PATHS = Object.freeze(['/doc', '/tickets/{id}', '/tickets', '/cart', '/attendees/{id}', '/attendees']);


function json(schema: Record<string, unknown>) {
  return { 'application/json': { schema } };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const described = (description: string, schema?: Record<string, unknown>) => (schema ? { description, content: json(schema) } : { description });
const listOf = (key: string, item: string) => ({
  type: 'object',
  properties: {
    rest_url: { type: 'string', format: 'uri', description: 'This results page REST URL' },
    total: { type: 'integer', description: 'The total number of results across all pages' },
    total_pages: { type: 'integer', description: 'The total number of result pages matching the search criteria' },
    [key]: { type: 'array', items: ref(item) },
  },
});
const cartBody = {
  type: 'object',
  properties: {
    tickets: { type: 'array', description: 'The list of tickets and their quantities in the cart' },
    meta: { type: 'array', description: 'Attendee registration answers per ticket' },
    cart_url: { type: 'string', description: 'The provider cart URL' },
    checkout_url: { type: 'string', description: 'The provider checkout URL' },
  },
};

/** Responses per `path method` (the part of the document that is not in the declarations). */
const RESPONSES: Record<string, Record<string, unknown>> = {
  '/doc get': { '200': described('Returns the documentation for Event Tickets REST API in Swagger consumable format.') },
  '/tickets/{id} get': {
    '200': described('Returns the data of the ticket with the specified post ID', ref('Ticket')),
    '400': described('The ticket post ID is invalid.'),
    '401': described('The ticket with the specified ID is not accessible.'),
    '404': described('A ticket with the specified ID does not exist.'),
  },
  '/tickets/{id} write': {
    '202': described('Returns the updated ticket', ref('Ticket')),
    '400': described('The provider or a field is invalid.'),
    '403': described('The nonce is invalid or the user cannot edit the post.'),
  },
  '/tickets/{id} delete': {
    '202': described('Returns `true` when the ticket was deleted', { type: 'boolean' }),
    '401': described('The ticket with the specified ID is not accessible.'),
    '403': described('The nonce is invalid or the user cannot edit the post.'),
    '404': described('A ticket with the specified ID does not exist.'),
  },
  '/tickets get': {
    '200': described('Returns all the tickets matching the search criteria', listOf('tickets', 'Ticket')),
    '400': described('One or more of the specified query variables has a bad format'),
  },
  '/tickets write': {
    '202': described('Returns the created ticket', ref('Ticket')),
    '400': described('The provider or a field is invalid.'),
    '403': described('The nonce is invalid or the user cannot edit the post.'),
  },
  '/cart get': {
    '200': described('Returns the list of tickets in the cart', cartBody),
    '400': described('The post ID is invalid.'),
    '403': described('The post does not have any tickets'),
  },
  '/cart write': {
    '200': described('Returns the updated list of tickets in the cart and cart details', cartBody),
    '400': described('The post ID or a ticket is invalid.'),
    '403': described('The post does not have any tickets'),
    '409': described('A ticket does not have that many available for purchase.'),
  },
  '/attendees/{id} get': {
    '200': described('Returns the data of the attendee with the specified post ID', ref('Attendee')),
    '400': described('The attendee post ID is invalid.'),
    '401': described('The attendee with the specified ID is not accessible.'),
    '404': described('An attendee with the specified ID does not exist.'),
  },
  '/attendees/{id} write': {
    '201': described('Returns the updated attendee', ref('Attendee')),
    '400': described('The attendee is already checked in, or its order does not allow check-in.'),
    '401': described('Manage access is required.'),
    '404': described('An attendee with the specified ID does not exist.'),
  },
  '/attendees get': {
    '200': described('Returns all the attendees matching the search criteria', listOf('attendees', 'Attendee')),
    '400': described('One or more of the specified query variables has a bad format'),
  },
  '/attendees write': {
    '201': described('Returns the created attendee', ref('Attendee')),
    '400': described('A field is invalid.'),
    '401': described('Manage access is required.'),
  },
};

/** The tickets `/doc`: how the generic namespace document is written for it. */
function ticketsDocOptions(serverUrl: string): NamespaceDocOptions {
  return {
    info: {
      version: '1.0.0',
      title: 'Event Tickets REST API',
      description: 'Event Tickets REST API allows accessing ticket information easily and conveniently.',
    },
    serverUrl,
    schemas: SCHEMAS,
    componentsFirst: false,
    paths: DOC_PATHS,
    schema: {
      keys: ['type', 'format', 'enum', 'default', 'minimum', 'maximum', 'items', 'properties'],
      special: (arg) => {
        const list = LIST_ARGS.get(arg);
        return list ? { oneOf: [{ type: 'array', items: { type: list } }, { type: 'string' }] } : undefined;
      },
    },
    isList: (arg) => LIST_ARGS.has(arg),
    noDescription: 'No description provided',
    bodyDescriptionIfAny: true,
    responses: (path, method) => RESPONSES[`${path} ${method === 'get' || method === 'delete' ? method : 'write'}`] ?? { '200': described('OK') },
  };
}

/** The whole document, generated from `routes`; `now` is the app clock's time. */
export function ticketsDocument(ctx: Pick<AppContext, 'urls'>, routes: readonly RouteDef[], now: Date): Record<string, unknown> {
  return namespaceDocument(routes, ticketsDocOptions(ticketsUrl(ctx, '')), now);
}

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });
const bool = (description: string) => ({ type: 'boolean', description });
const PROVIDERS = ['rsvp', 'tribe-commerce', 'woo', 'edd'];

/** `components.schemas`, in the original's order. */
const SCHEMAS: Record<string, unknown> = {
  Image: {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'The URL to the full size version of the image' },
      id: int('The image WordPress post ID'),
      extension: str('The image file extension'),
      width: int('The image natural width in pixels'),
      height: int('The image natural height in pixels'),
      sizes: { type: 'array', description: 'The details about each size available for the image', items: ref('ImageSize') },
    },
  },
  ImageSize: {
    type: 'object',
    properties: {
      width: int('The image width in pixels in the specified size'),
      height: int('The image height in pixels in the specified size'),
      'mime-type': str('The image mime-type'),
      url: { type: 'string', format: 'uri', description: 'The link to the image in the specified size on the site' },
    },
  },
  DateDetails: {
    type: 'object',
    properties: {
      year: int('The date year'),
      month: int('The date month'),
      day: int('The date day'),
      hour: int('The date hour'),
      minutes: int('The date minutes'),
      seconds: int('The date seconds'),
    },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: str('The cost currency symbol'),
      currency_position: { type: 'string', description: 'The position of the currency symbol in the cost string', enum: ['prefix', 'postfix'] },
      values: { type: 'array', items: { type: 'string' }, description: 'A sorted array of all the numeric values for the cost' },
    },
  },
  CapacityDetails: {
    type: 'object',
    properties: {
      available_percentage: int('The ticket available capacity percentage'),
      max: int('The ticket max capacity'),
      available: int('The ticket current available capacity'),
      sold: int('The ticket sale count'),
      pending: int('The ticket pending count'),
      global_stock_mode: { type: 'string', description: 'The shared capacity mode', enum: ['own', 'global', 'capped', ''] },
    },
  },
  CheckinDetails: {
    type: 'object',
    properties: {
      date: str('The check-in date'),
      date_details: ref('DateDetails'),
      source: { type: 'string', description: 'The check-in source', enum: ['site', 'app'] },
      author: int('The ID of the user who checked the attendee in'),
    },
  },
  PaymentDetails: {
    type: 'object',
    properties: {
      provider: str('The payment provider'),
      price: str('The ticket price'),
      currency: str('The payment currency'),
      date: str('The payment date'),
      date_details: ref('DateDetails'),
    },
  },
  RSVPReport: {
    type: 'object',
    properties: {
      rsvp_going: int('The number of attendees going'),
      rsvp_not_going: int('The number of attendees not going'),
    },
  },
  CheckinReport: {
    type: 'object',
    properties: {
      checked_in: int('The number of attendees checked in'),
      unchecked_in: int('The number of attendees not checked in'),
      checked_in_percentage: int('The percentage of attendees checked in'),
      unchecked_in_percentage: int('The percentage of attendees not checked in'),
    },
  },
  Ticket: {
    type: 'object',
    properties: {
      id: int('The ticket WordPress post ID'),
      post_id: int('The ID of the post the ticket is associated with'),
      type: str('The ticket type'),
      provider: { type: 'string', description: 'The ticket commerce provider', enum: PROVIDERS },
      global_id: str('The ticket global ID'),
      global_id_lineage: { type: 'array', description: 'The ticket global ID lineage', items: { type: 'string' } },
      author: str('The ticket post author ID'),
      status: str('The ticket post status'),
      date: str('The ticket creation date'),
      date_utc: str('The ticket creation UTC date'),
      modified: str('The ticket modification date'),
      modified_utc: str('The ticket modification UTC date'),
      title: str('The ticket title'),
      description: str('The ticket description'),
      image: ref('Image'),
      available_from: str('The date the ticket will be available'),
      available_from_details: ref('DateDetails'),
      available_until: str('The date the ticket will be available until'),
      available_until_details: ref('DateDetails'),
      capacity: int('The ticket capacity'),
      capacity_details: ref('CapacityDetails'),
      is_available: bool('Whether the ticket is currently available or not'),
      cost: str('The ticket formatted cost'),
      cost_details: ref('CostDetails'),
      attendees: { type: 'array', description: 'A list of attendees for the ticket', items: ref('Attendee') },
      supports_attendee_information: bool('Whether the ticket supports attendee information'),
      rsvp: ref('RSVPReport'),
      checkin: ref('CheckinReport'),
      rest_url: { type: 'string', format: 'uri', description: 'The ticket REST URL' },
    },
  },
  Attendee: {
    type: 'object',
    properties: {
      id: int('The attendee WordPress post ID'),
      post_id: int('The ID of the post the attendee is associated with'),
      ticket_id: int('The ID of the ticket the attendee is associated with'),
      global_id: str('The attendee global ID'),
      global_id_lineage: { type: 'array', description: 'The attendee global ID lineage', items: { type: 'string' } },
      author: str('The attendee post author ID'),
      status: str('The attendee post status'),
      date: str('The attendee creation date'),
      date_utc: str('The attendee creation UTC date'),
      modified: str('The attendee modification date'),
      modified_utc: str('The attendee modification UTC date'),
      rest_url: { type: 'string', format: 'uri', description: 'The attendee REST URL' },
      provider: { type: 'string', description: 'The ticket commerce provider', enum: PROVIDERS },
      order: int('The order the attendee belongs to; for RSVP the attendee ID'),
      sku: str('The attendee ticket SKU'),
      title: str('The attendee name'),
      email: str('The attendee e-mail'),
      checked_in: bool('Whether the attendee is checked in or not'),
      checkin_details: ref('CheckinDetails'),
      rsvp_going: bool('Whether the RSVP attendee is going or not'),
      payment: ref('PaymentDetails'),
    },
  },
  QR: {
    type: 'object',
    properties: {
      id: int('The attendee ID'),
      checked_in: str('The raw check-in flag ("1" or "")'),
    },
  },
};
