/**
 * @module namespaces/shop-admin/product-types
 * `onboarding/product-types`: the profile's product types, described as this product sells them
 * (tickets are its products).
 */
export const PRODUCT_TYPES: Readonly<Record<string, Record<string, unknown>>> = {
  physical: { label: 'Tickets', description: 'Seats at in-person events, checked in with a QR code.', default: true },
  downloads: { label: 'Livestream access', description: 'Access to events held online.' },
  subscriptions: { label: 'Season passes', description: 'One purchase covering a series of events.' },
  memberships: { label: 'Memberships', description: 'Members-only events and prices.' },
  bookings: { label: 'RSVPs', description: 'Free reservations with a capacity.' },
  'product-bundles': { label: 'Ticket bundles', description: 'Several tickets sold together.' },
  'product-add-ons': { label: 'Add-ons', description: 'Extras sold with a ticket.' },
};
