/**
 * @module namespaces/onboarding
 * The calendar's onboarding: `calendar/v2/onboarding` (the wizard route) and the admin page that walks
 * an administrator through it. The settings it stores change the calendar: the time zone of new
 * events, the currency of event costs and new tickets, the date format of the pages, the month grid's
 * first weekday, the enabled views.
 */
import { defineArea } from '../../area.js';
import { onboardingRoutes, useWizardDispatcher } from './wizard.routes.js';
import { registerWizardPage } from './wizard.page.js';
import { unfinishedSetupNotice } from './wizard.service.js';

export const onboardingArea = defineArea({
  id: 'onboarding',
  title: 'Calendar onboarding',
  description: 'The first-time setup wizard of the events calendar.',
  requires: ['events'],
  namespaces: [onboardingRoutes],
  settings: {
    tec_onboarding_wizard_data: { default: {}, description: 'Where the onboarding wizard stands (begun, finished, tabs, last answers).' },
    'opt-in-status': { default: null, description: 'Whether the administrator opted in to usage data.' },
  },
  pages: (app, host) => {
    useWizardDispatcher(host.ctx, host.dispatcher);
    registerWizardPage(app, host);
  },
  contributes: { dashboardNotice: unfinishedSetupNotice },
});

export { ONBOARDING_NS, WIZARD_NONCE_ACTION } from './wizard.routes.js';
