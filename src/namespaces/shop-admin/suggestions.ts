/**
 * @module namespaces/shop-admin/suggestions
 * The bundled suggestion lists: this product's real options (its payment gateway modes, its own
 * extensions), used when no remote spec is configured.
 */

export const PAYMENT_GATEWAY_SUGGESTIONS = [
  {
    id: 'eventsuite-remote-payments',
    title: 'Card payments',
    content: 'Take card payments for paid tickets through the payment service configured with REMOTE_PAYMENTS_URL.',
    image: '',
    plugins: [],
    is_visible: true,
    recommendation_priority: 1,
    category_other: [],
    category_additional: [],
  },
  {
    id: 'eventsuite-offline-payments',
    title: 'Pay at the door',
    content: 'Hold seats for buyers who pay in person; a manager marks the order paid.',
    image: '',
    plugins: [],
    is_visible: true,
    recommendation_priority: 2,
    category_other: [],
    category_additional: [],
  },
];

export const SHIPPING_PARTNER_SUGGESTIONS: unknown[] = [];

export const MARKETING_RECOMMENDATIONS = [
  { title: 'Mailing list sign-up', description: 'Collect e-mail addresses of people who want to hear about new events.', url: '', direct_install: true, icon: '', product: 'mailing-list', plugin: 'mailing-list', categories: ['marketing'], subcategories: [{ slug: 'email', name: 'Email' }], tags: [] },
  { title: 'Search engine tools', description: 'Page titles, descriptions and event structured data for search engines.', url: '', direct_install: true, icon: '', product: 'seo', plugin: 'seo', categories: ['marketing'], subcategories: [{ slug: 'seo', name: 'SEO' }], tags: [] },
  { title: 'Contact forms', description: 'Let visitors ask questions about your events.', url: '', direct_install: true, icon: '', product: 'contact-forms', plugin: 'contact-forms', categories: ['marketing'], subcategories: [{ slug: 'engagement', name: 'Engagement' }], tags: [] },
];

/** No articles are bundled: the knowledge base comes from the remote spec only. */
export const KNOWLEDGE_BASE: unknown[] = [];
