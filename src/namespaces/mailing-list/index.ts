/**
 * @module namespaces/mailing-list
 * Mailing-list sign-up `mailinglist/v1` (the original `mc4wp/v1`): `POST /form` for sign-up forms,
 * a Mailchimp-protocol list service or the local list with double opt-in, its public confirm and
 * unsubscribe pages, and the admin page.
 */
import { defineArea } from '../../area.js';
import { SIGNUP_POST_TYPE } from './forms.repo.js';
import { mailinglistRoutes } from './form.routes.js';
import { registerMailinglistPages } from './pages.js';

export const mailingListArea = defineArea({
  id: 'mailing-list',
  title: 'Mailing list',
  description: 'Sign-up forms feeding a Mailchimp-protocol list service, or a local list with double opt-in.',
  namespaces: [mailinglistRoutes],
  postTypes: [{ type: SIGNUP_POST_TYPE, label: 'Sign-up forms', public: false }],
  pages: (app, host) => registerMailinglistPages(app, host.ctx),
});

export { MAILINGLIST_NS } from './form.routes.js';
export { createSignupForm, listSignupForms, type SignupForm } from './forms.repo.js';
