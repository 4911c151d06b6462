/**
 * @module namespaces/shop-admin/ai.routes
 * `ai/*`: store title, business description, images, patterns and product texts written by the
 * OpenAI-compatible service at `REMOTE_AI_URL`. The original's checks first (`manage_options`, the
 * `woocommerce_blocks_allow_ai_connection` option); without a configured service a clear 503.
 */
import type { AppContext } from '../../app-context.js';
import { SITE_DEFAULTS } from '../../content/options.js';
import { aiClient, AiServiceError } from '../../remote/ai-client.js';
import { stripTags } from '../../content/posts.js';
import { CREATABLE, DELETABLE, READABLE, type Permission, type RestRequest, type RouteDef } from '../../rest/route.js';
import { ShopAdminErrors } from './errors.js';
import { AI_PATTERNS_OPTION } from './public-pages.js';

const OPTIONS = {
  allow: 'woocommerce_blocks_allow_ai_connection',
  title: 'ai_generated_site_title',
  description: 'woo_ai_describe_store_description',
  images: 'ai_generated_images',
  patterns: AI_PATTERNS_OPTION,
} as const;

const canUseAi: Permission<AppContext> = async (req, ctx) => {
  if (!req.user?.can('manage_options')) return ShopAdminErrors.aiUser();
  const allowed = await ctx.options.get<unknown>(OPTIONS.allow, false);
  return allowed === true || allowed === 'yes' || allowed === '1' || allowed === 1 || ShopAdminErrors.aiNotAllowed();
};

async function ask(ctx: AppContext, system: string, prompt: string): Promise<string> {
  const endpoint = ctx.config.remotes.ai;
  if (!endpoint) throw ShopAdminErrors.aiUnavailable();
  try {
    return await aiClient(endpoint, ctx.config.aiApiKey).complete(system, prompt);
  } catch (e) {
    if (e instanceof AiServiceError) throw ShopAdminErrors.aiService(e.message);
    throw e;
  }
}

function description(req: RestRequest, stored = ''): string {
  const d = (typeof req.params.business_description === 'string' ? req.params.business_description.trim() : '') || stored.trim();
  if (d === '') throw ShopAdminErrors.invalidBusinessDescription();
  return d.slice(0, 2000);
}

/** Images and patterns fall back to the description stored by `ai/business-description`, as the original's. */
async function describedStore(req: RestRequest, ctx: AppContext): Promise<string> {
  const stored = await ctx.options.get<unknown>(OPTIONS.description, '');
  return description(req, typeof stored === 'string' ? stored : '');
}

async function storeTitle(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const about = description(req);
  const current = String(await ctx.options.get('blogname'));
  const previous = await ctx.options.get<string>(OPTIONS.title, '');
  if (current !== SITE_DEFAULTS.blogname && current !== previous) return { ai_content_generated: false };
  const title = stripTags(await ask(ctx, 'You name event venues and ticket shops. Answer with the name only, at most six words, no quotes.', about)).replace(/^["'“”]+|["'“”]+$/g, '').slice(0, 80);
  await ctx.options.set('blogname', title);
  await ctx.options.set(OPTIONS.title, title);
  return { ai_content_generated: true };
}

async function businessDescription(req: RestRequest, ctx: AppContext): Promise<unknown> {
  await ctx.options.set(OPTIONS.description, description(req));
  return { ai_content_generated: true };
}

async function images(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const about = await describedStore(req, ctx);
  const answer = await ask(ctx, 'Suggest three short photo descriptions (one per line) that suit the front page of this events business.', about);
  const list = answer.split('\n').map((l) => stripTags(l).replace(/^[-*\d.\s]+/, '').trim()).filter(Boolean).slice(0, 3);
  await ctx.options.set(OPTIONS.images, list);
  return { ai_content_generated: true, images: list };
}

async function patterns(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const about = await describedStore(req, ctx);
  const answer = await ask(ctx, 'Write a front-page headline (one line), then a tagline (one line), then an about paragraph, for this events business.', about);
  const [headline = '', tagline = '', ...rest] = answer.split('\n').map((l) => stripTags(l).trim()).filter(Boolean);
  const value = { headline, tagline, about: rest.join(' '), images: req.params.images ?? null };
  await ctx.options.set(OPTIONS.patterns, value);
  return { ai_content_generated: true, patterns: value };
}

async function resetPatterns(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  await ctx.options.delete(OPTIONS.patterns);
  return { ai_content_generated: false };
}

async function product(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const info = req.params.products_information;
  if (!info || typeof info !== 'object') throw ShopAdminErrors.invalidProductsInformation();
  const text = await ask(ctx, 'Write a short, friendly description (at most 60 words) of this event ticket.', JSON.stringify(info).slice(0, 2000));
  return { ai_content_generated: true, product_content: stripTags(text), last_product: req.params.last_product === true };
}

async function storeInfo(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const title = await ctx.options.get<string>(OPTIONS.title, '');
  const pats = await ctx.options.get<unknown>(OPTIONS.patterns, null);
  return { is_ai_generated: title !== '' || pats !== null };
}

const about = { business_description: { description: 'The business description for a given store.', type: 'string' } };

export const aiRouteDefs: RouteDef<AppContext>[] = [
  { path: '/ai/store-title', endpoints: [{ methods: CREATABLE, args: about, permission: canUseAi, handler: storeTitle }] },
  { path: '/ai/business-description', endpoints: [{ methods: CREATABLE, args: about, permission: canUseAi, handler: businessDescription }] },
  { path: '/ai/images', endpoints: [{ methods: CREATABLE, args: about, permission: canUseAi, handler: images }] },
  { path: '/ai/store-info', endpoints: [{ methods: READABLE, permission: canUseAi, handler: storeInfo }] },
  {
    path: '/ai/patterns',
    endpoints: [
      { methods: CREATABLE, args: { ...about, images: { description: 'The images for a given store.', type: 'object' } }, permission: canUseAi, handler: patterns },
      { methods: DELETABLE, permission: canUseAi, handler: resetPatterns },
    ],
  },
  {
    path: '/ai/product',
    endpoints: [
      {
        methods: CREATABLE,
        args: {
          products_information: { description: 'Data for a product.', type: 'object' },
          last_product: { description: 'Whether the product is the last one.', type: 'boolean' },
        },
        permission: canUseAi,
        handler: product,
      },
    ],
  },
];
