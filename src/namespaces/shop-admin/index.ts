/**
 * @module namespaces/shop-admin
 * The `shop-admin` area (the original `wc-admin`): onboarding profile and core profiler, task lists
 * computed from the live site, allow-listed options, extensions (this product's areas and registry
 * packages) switched on and off for real, themes of the public pages, marketing and suggestions, the
 * mobile sign-in link, AI texts, and launch your store with a real coming-soon mode.
 */
import { defineArea } from '../../area.js';
import type { AppContext } from '../../app-context.js';
import { defineRoutes } from '../../rest/route.js';
import { aiRouteDefs } from './ai.routes.js';
import { EXTENSION_JOB_KIND, runExtensionJob } from './extensions.service.js';
import { launchRouteDefs } from './launch.routes.js';
import { comingSoonApiGate, comingSoonPageGate } from './launch.service.js';
import { marketingRouteDefs } from './marketing.routes.js';
import { mobileAppRouteDefs } from './mobile-app.routes.js';
import { registerMagicLinkPage } from './mobile-app.service.js';
import { optionRouteDefs } from './options.routes.js';
import { pluginRouteDefs } from './plugins.routes.js';
import { profileRouteDefs } from './profile.routes.js';
import { taskRouteDefs } from './tasks.routes.js';
import { registerThemeStylesheet } from './themes.page.js';
import { themeRouteDefs } from './themes.routes.js';
import { extensionsScreen } from './extensions.screen.js';
import { generatedFrontPage, storeNotice } from './public-pages.js';

export const SHOP_ADMIN_NS = 'shop-admin';

export const shopAdminRoutes = defineRoutes<AppContext>(SHOP_ADMIN_NS, [
  ...optionRouteDefs,
  ...marketingRouteDefs,
  ...themeRouteDefs,
  ...pluginRouteDefs,
  ...profileRouteDefs,
  ...taskRouteDefs,
  ...mobileAppRouteDefs,
  ...aiRouteDefs,
  ...launchRouteDefs,
]);

export const shopAdminArea = defineArea({
  id: 'shop-admin',
  title: 'Shop administration',
  description: 'Onboarding, task lists, settings, extensions, themes, marketing and launching the store.',
  requires: ['tickets'],
  namespaces: [shopAdminRoutes],
  settings: {
    woocommerce_coming_soon: { default: 'no', description: 'While `yes`, visitors see a coming-soon page and the public calendar API is closed to them.' },
    eventsuite_theme: { default: 'daybreak', description: 'The theme of the public calendar pages.' },
    eventsuite_payments_test_mode: { default: 'no', description: 'While `yes`, orders paid through the payment gateway are marked test orders.' },
    woocommerce_blocks_allow_ai_connection: { default: false, description: 'Whether the AI routes may call the AI service.' },
  },
  pages: (app, host) => {
    registerThemeStylesheet(app, host.ctx);
    registerMagicLinkPage(app, host.ctx);
  },
  jobs: { [EXTENSION_JOB_KIND]: runExtensionJob },
  contributes: {
    adminScreens: extensionsScreen,
    apiGate: comingSoonApiGate,
    pageGate: comingSoonPageGate,
    pageStylesheet: '/theme.css',
    pageNotice: storeNotice,
    frontPageSection: generatedFrontPage,
  },
});
