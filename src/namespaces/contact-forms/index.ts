/**
 * @module namespaces/contact-forms
 * Contact forms `contact-form/v1` (the original `contact-form-7/v1`): forms as posts with the
 * form-tag language, the submission pipeline with mail over SMTP, the validation schema, quiz refill,
 * and the admin page of stored submissions.
 */
import { defineArea } from '../../area.js';
import { FORM_POST_TYPE } from './forms.repo.js';
import { contactFormRoutes } from './forms.routes.js';
import { registerSubmissionPages } from './submissions.page.js';

export const contactFormsArea = defineArea({
  id: 'contact-forms',
  title: 'Contact forms',
  description: 'Forms built from form tags, their submissions (validated, spam-checked, mailed and stored) and the submissions admin page.',
  namespaces: [contactFormRoutes],
  postTypes: [{ type: FORM_POST_TYPE, label: 'Contact Forms', public: false }],
  pages: (app, host) => registerSubmissionPages(app, host.ctx),
});

export { CONTACT_FORM_NS } from './forms.routes.js';
