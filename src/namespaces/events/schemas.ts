/**
 * @module namespaces/events/schemas
 * JSON schemas of the calendar's objects, written once: the `/doc` document's `components.schemas`
 * and the routes' item schemas (`context=help`, OPTIONS) both come from here.
 */

type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** `components.schemas` of the events `/doc`, in the original's order. */
export const EVENT_DOC_SCHEMAS: Record<string, Schema> = {
  ImageSize: {
    type: 'object',
    properties: {
      width: int('The image width in pixels in the specified size'),
      height: int('The image height in pixels in the specified size'),
      'mime-type': str('The image mime-type'),
      url: { type: 'string', format: 'uri', description: 'The link to the image in the specified size on the site' },
    },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: str('The cost currency symbol'),
      currency_code: str('The cost currency code'),
      currency_position: { type: 'string', description: 'The position of the currency symbol in the cost string', enum: ['prefix', 'postfix'] },
      values: { type: 'array', items: { type: 'string' }, description: 'A sorted array of all the numeric values for the cost' },
    },
  },
  Term: {
    type: 'object',
    properties: {
      id: int('The WordPress term ID'),
      name: str('The term name'),
      slug: str('The term slug'),
      taxonomy: str('The taxonomy the term belongs to'),
      description: str('The term description'),
      parent: int('The term parent term if any'),
      count: int('The number of posts associated with the term'),
      url: str('The URL to the term archive page'),
      urls: { type: 'array', items: { type: 'string' }, description: 'A list of links to the term own, archive and parent REST URL' },
    },
  },
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
  Event: {
    type: 'object',
    properties: {
      id: int('The event WordPress post ID'),
      global_id: str("The event ID used to globally identify in Event Aggregator"),
      global_id_lineage: { type: 'array', items: { type: 'string' }, description: 'An Array containing the lineage of where this event comes from, this should not change after the event is created.' },
      author: int('The event author WordPress post ID'),
      date: str('The event creation date in the site timezone'),
      date_utc: str('The event creation date in UTC time'),
      modified: str('The event last modification date in the site timezone'),
      modified_utc: str('The event last modification date in UTC time'),
      status: str('The event status'),
      url: { type: 'string', format: 'uri', description: 'The URL to the event page' },
      rest_url: { type: 'string', format: 'uri', description: 'The TEC REST API link to fetch this event' },
      title: str('The event name'),
      description: str('The event long description'),
      excerpt: str('The event short description'),
      slug: str('The event slug'),
      image: ref('Image'),
      all_day: bool('Whether or not this event is an all day Event'),
      start_date: str('The event start date in the event or site timezone'),
      start_date_details: ref('DateDetails'),
      end_date: str('The event end date in the event or site timezone'),
      end_date_details: ref('DateDetails'),
      utc_start_date: str('The event start date in UTC time'),
      utc_start_date_details: ref('DateDetails'),
      utc_end_date: str('The event end date in UTC time'),
      utc_end_date_details: ref('DateDetails'),
      timezone: str('The event timezone string'),
      timezone_abbr: str('The abbreviated event timezone string'),
      cost: str('The event cost including the currency symbol'),
      cost_details: ref('CostDetails'),
      website: { type: 'string', format: 'uri', description: 'The event website URL' },
      show_map: bool('Whether the map should be shown for the event or not'),
      show_map_link: bool('Whether the map link should be shown for the event or not'),
      hide_from_listings: bool('Whether an event should be hidden from the calendar view or not'),
      sticky: bool('Whether an event is sticky in the calendar view or not'),
      featured: bool('Whether the event is featured in the calendar or not'),
      categories: { type: 'array', description: 'The event categories', items: ref('Term') },
      tags: { type: 'array', description: 'The event tags', items: ref('Term') },
      venue: ref('Venue'),
      organizer: { type: 'array', description: 'The event organizers', items: ref('Organizer') },
      custom_fields: { type: 'array', description: 'The event additional fields', items: { type: 'object' } },
    },
  },
  Venue: {
    type: 'object',
    properties: {
      id: int('The venue WordPress post ID'),
      author: int('The venue author WordPress post ID'),
      status: str('The venue post status'),
      date: str('The venue creation date in the site timezone'),
      date_utc: str('The venue creation date in UTC time'),
      modified: str('The venue last modification date in the site timezone'),
      modified_utc: str('The venue last modification date in UTC time'),
      url: { type: 'string', format: 'uri', description: 'The URL to the venue page' },
      venue: str('The venue name'),
      description: str('The venue long description'),
      excerpt: str('The venue short description'),
      slug: str('The venue slug'),
      image: ref('Image'),
      address: str('The venue address'),
      city: str('The venue city'),
      country: str('The venue country'),
      province: str('The venue province'),
      state: str('The venue state'),
      zip: str('The venue ZIP code'),
      phone: str('The venue phone number'),
      website: { type: 'string', format: 'uri', description: "The venue website URL" },
      stateprovince: str('The venue state or province'),
      geo_lat: { type: 'number', format: 'double', description: 'The venue geo latitude' },
      geo_lng: { type: 'number', format: 'double', description: 'The venue geo longitude' },
      show_map: bool('Whether the map should be shown for the venue or not'),
      show_map_link: bool('Whether the map link should be shown for the venue or not'),
      global_id: str('The venue ID used to globally identify in Event Aggregator'),
      global_id_lineage: { type: 'array', items: { type: 'string' }, description: 'An Array containing the lineage of where this venue comes from' },
    },
  },
  Organizer: {
    type: 'object',
    properties: {
      id: int('The organizer WordPress post ID'),
      author: int('The organizer author WordPress post ID'),
      status: str('The organizer post status'),
      date: str('The organizer creation date in the site timezone'),
      date_utc: str('The organizer creation date in UTC time'),
      modified: str('The organizer last modification date in the site timezone'),
      modified_utc: str('The organizer last modification date in UTC time'),
      url: { type: 'string', format: 'uri', description: 'The URL to the organizer page' },
      organizer: str('The organizer name'),
      description: str('The organizer long description'),
      excerpt: str('The organizer short description'),
      slug: str('The organizer slug'),
      image: ref('Image'),
      phone: str('The organizer phone number'),
      website: { type: 'string', format: 'uri', description: "The organizer website URL" },
      email: str('The organizer email address'),
      global_id: str('The organizer ID used to globally identify in Event Aggregator'),
      global_id_lineage: { type: 'array', items: { type: 'string' }, description: 'An Array containing the lineage of where this organizer comes from' },
    },
  },
};

/** A route item schema (`context=help`) for one of the documented objects. */
export function itemSchema(name: 'Event' | 'Venue' | 'Organizer' | 'Term', title: string): () => Record<string, unknown> {
  return () => ({
    $schema: 'http://json-schema.org/draft-04/schema#',
    title,
    type: 'object',
    properties: (EVENT_DOC_SCHEMAS[name] as { properties: Schema }).properties,
  });
}
