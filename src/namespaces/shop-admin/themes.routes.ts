/**
 * @module namespaces/shop-admin/themes.routes
 * The theme routes: upload a theme package, install and activate a theme, and the recommended
 * themes of the onboarding (`themes.service.ts` holds the themes themselves).
 */
import type { AppContext } from '../../app-context.js';
import { EDITABLE, READABLE, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canViewShop } from './access.js';
import { SHOP_ADMIN_MESSAGES, ShopAdminErrors } from './errors.js';
import { BUNDLED_THEMES, DEFAULT_THEME, THEME_OPTION, findTheme, installThemeZip, uploadedThemes } from './themes.service.js';
import { ZipError } from './zip.js';

/** A missing upload is an error; a package that cannot be installed is reported as the original does, `status: error` with 200. */
async function uploadTheme(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const file = req.files.pluginzip;
  if (!file) throw ShopAdminErrors.invalidFile(SHOP_ADMIN_MESSAGES.themeMissing);
  if (!/\.zip$/i.test(file.filename)) return { status: 'error', message: SHOP_ADMIN_MESSAGES.themeNotZip };
  try {
    const slug = await installThemeZip(ctx, file.data);
    return { status: 'success', message: 'The theme was installed.', theme: slug };
  } catch (e) {
    if (e instanceof ZipError) return { status: 'error', message: e.message };
    throw e;
  }
}

async function installTheme(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const slug = String(req.params.theme ?? '');
  const theme = await findTheme(ctx, slug);
  if (!theme) throw ShopAdminErrors.themeInstall(slug);
  return { slug: theme.slug, name: theme.name, status: 'success' };
}

async function activateTheme(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const theme = await findTheme(ctx, String(req.params.theme ?? ''));
  if (!theme) throw ShopAdminErrors.invalidTheme();
  await ctx.options.set(THEME_OPTION, theme.slug);
  return { slug: theme.slug, name: theme.name, status: 'success' };
}

async function recommendedThemes(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const suggestions = (await ctx.options.get<string>('woocommerce_show_marketplace_suggestions', 'yes')) !== 'no';
  const active = await ctx.options.get<string>(THEME_OPTION, DEFAULT_THEME);
  const all = [...BUNDLED_THEMES, ...(await uploadedThemes(ctx))];
  return {
    themes: suggestions
      ? all.map((t) => ({ name: t.name, price: 'Free', color_palettes: [t.palette], total_palettes: 1, slug: t.slug, is_active: t.slug === active, thumbnail_url: '', link_url: `${ctx.urls.home}/theme.css` }))
      : [],
    _links: { browse_all: { href: `${ctx.urls.rest('/shop-admin/onboarding/themes/recommended')}` } },
  };
}

export const themeRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/themes',
    endpoints: [
      {
        methods: EDITABLE,
        args: {
          context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view', 'edit'], default: 'view' },
          pluginzip: { description: 'A zip file of the theme to be uploaded.', type: 'file', validate: () => true },
        },
        permission: (req) => req.user?.can('install_themes') === true || ShopAdminErrors.cannotUploadThemes(req),
        handler: uploadTheme,
      },
    ],
  },
  { path: '/onboarding/themes/install', endpoints: [{ methods: EDITABLE, permission: (req) => req.user?.can('install_themes') === true || ShopAdminErrors.cannotInstallThemes(req), handler: installTheme }] },
  { path: '/onboarding/themes/activate', endpoints: [{ methods: EDITABLE, permission: (req) => req.user?.can('switch_themes') === true || ShopAdminErrors.cannotManageThemes(req), handler: activateTheme }] },
  {
    path: '/onboarding/themes/recommended',
    endpoints: [
      {
        methods: READABLE,
        args: {
          industry: { description: 'Industry.', type: 'string' },
          currency: { description: 'Currency.', type: 'string', enum: ['USD', 'AUD', 'CAD', 'EUR', 'GBP'], default: 'USD' },
        },
        permission: canViewShop,
        handler: recommendedThemes,
      },
    ],
  },
];
