/**
 * @module namespaces/shop-admin/samples
 * Bundled sample content: the events (with tickets) `import_sample_products` adds, the ticket
 * templates of `create_product_from_template`, and the front page of `create_homepage`.
 */

export interface SampleEvent {
  title: string;
  description: string;
  /** Days from today, and the local start hour. */
  inDays: number;
  hour: number;
  hours: number;
  cost: string;
  tickets: { name: string; price: string; capacity: number; description: string }[];
}

export const SAMPLE_EVENTS: readonly SampleEvent[] = [
  {
    title: 'Sample: Spring Jazz Night',
    description: 'An evening of live jazz with a local quartet. Doors open thirty minutes before the first set.',
    inDays: 14, hour: 19, hours: 3, cost: '15',
    tickets: [
      { name: 'General admission', price: '15', capacity: 120, description: 'Standing room.' },
      { name: 'Table for two', price: '50', capacity: 10, description: 'A reserved table near the stage.' },
    ],
  },
  {
    title: 'Sample: Community Garden Workshop',
    description: 'Learn to plan, plant and care for a small vegetable bed. Gloves and tools are provided.',
    inDays: 21, hour: 10, hours: 2, cost: 'Free',
    tickets: [{ name: 'RSVP', price: '0', capacity: 25, description: 'Free; please reserve a spot.' }],
  },
  {
    title: 'Sample: Autumn Food Market',
    description: 'Thirty stalls of local food and drink, with cooking demonstrations every hour.',
    inDays: 35, hour: 11, hours: 6, cost: '5',
    tickets: [{ name: 'Entry', price: '5', capacity: 500, description: 'Entry for one adult; children go free.' }],
  },
];

/** Ticket templates by name: a draft ticket made from one gets these fields. */
export const TICKET_TEMPLATES: Readonly<Record<string, { name: string; price: string; description: string; capacity?: number }>> = {
  physical: { name: 'General admission', price: '10', description: 'Entry to the event.', capacity: 100 },
  digital: { name: 'Livestream access', price: '5', description: 'A link to watch the event online.' },
  variable: { name: 'Early bird', price: '8', description: 'A limited number of tickets at a lower price.', capacity: 50 },
  free: { name: 'RSVP', price: '0', description: 'Free; reserve a spot.' },
};

export const HOMEPAGE = {
  title: 'Home',
  content: 'Welcome! Browse our upcoming events on the calendar, reserve your tickets, and check in at the door with the QR code in your ticket e-mail.',
};
