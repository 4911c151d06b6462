/**
 * @module namespaces/core/application-passwords.present
 * An application password as the original controller shows it: `uuid`, `app_id`, `name`, `created`,
 * `last_used`, `last_ip` (GMT dates without an offset), `password` only right after creation, and a
 * `self` link under the numeric user ID.
 */
import type { AppContext } from '../../app-context.js';
import type { ApplicationPasswordItem } from '../../auth/index.js';

/** The namespace the routes live in. */
export const CORE_NS = 'core/v2';

/** `YYYY-MM-DD HH:MM:SS` → `YYYY-MM-DDTHH:MM:SS`. */
function gmtIso(text: string): string {
  return text.replace(' ', 'T');
}

/** Absolute URL of one application password. */
export function applicationPasswordUrl(ctx: AppContext, userId: number, uuid: string): string {
  return ctx.urls.rest(`/${CORE_NS}/users/${userId}/application-passwords/${uuid}`);
}

/** The item for `context` (`view`, `embed`, `edit`); `password` (chunked) only when given and in `edit`. */
export function presentApplicationPassword(ctx: AppContext, item: ApplicationPasswordItem, context: string, password?: string): Record<string, unknown> {
  const out: Record<string, unknown> = { uuid: item.uuid, app_id: item.appId, name: item.name };
  if (context !== 'embed') {
    out.created = gmtIso(item.created);
    out.last_used = item.lastUsed ? gmtIso(item.lastUsed) : null;
    out.last_ip = item.lastIp ?? null;
  }
  if (context === 'edit' && password !== undefined) out.password = password;
  out._links = { self: [{ href: applicationPasswordUrl(ctx, item.userId, item.uuid) }] };
  return out;
}

/** The item schema (`context=help`, OPTIONS). */
export function applicationPasswordSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'application-password',
    type: 'object',
    properties: {
      uuid: { description: 'The unique identifier for the application password.', type: 'string', format: 'uuid', context: ['view', 'edit', 'embed'], readonly: true },
      app_id: {
        description: 'A uuid provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.',
        oneOf: [{ type: 'string', format: 'uuid' }, { type: 'string', enum: [''] }],
        context: ['view', 'edit', 'embed'],
      },
      name: { description: 'The name of the application password.', type: 'string', required: true, context: ['view', 'edit', 'embed'], minLength: 1, pattern: '.*\\S.*' },
      password: { description: 'The generated password. Only available after adding an application.', type: 'string', context: ['edit'], readonly: true },
      created: { description: 'The GMT date the application password was created.', type: 'string', format: 'date-time', context: ['view', 'edit'], readonly: true },
      last_used: { description: 'The GMT date the application password was last used.', type: ['string', 'null'], format: 'date-time', context: ['view', 'edit'], readonly: true },
      last_ip: { description: 'The IP address the application password was last used by.', type: ['string', 'null'], format: 'ip', context: ['view', 'edit'], readonly: true },
    },
  };
}
