/**
 * @module namespaces/tickets/ticket-nonces
 * The block editor's ticket nonces. The originals use the actions `add_ticket_nonce`,
 * `edit_ticket_nonce` and `remove_ticket_nonce`; here each is also bound to the post (add) or the
 * ticket (edit, remove) it was issued for, so a nonce for one ticket cannot change another. Like every
 * WordPress nonce they are bound to the user and session and live 12 to 24 hours.
 *
 * Where clients get them: single `GET /tickets/{id}` answers carry `edit_ticket_nonce` and
 * `remove_ticket_nonce` for callers who may edit the ticket (the editor layer); `GET /tickets` with
 * `include_post` naming one post the caller may edit carries `add_ticket_nonce` for that post; and
 * {@link issueAddTicketNonce} is exported for admin pages and event objects.
 */
import type { AppContext } from '../../app-context.js';
import { createNonce, verifyNonce } from '../../auth/nonces.js';
import type { RestRequest } from '../../rest/route.js';

export type TicketNonceAction = 'add_ticket_nonce' | 'edit_ticket_nonce' | 'remove_ticket_nonce';

function action(name: TicketNonceAction, id: number): string {
  return `${name}|${id}`;
}

/** `add_ticket_nonce` for creating tickets on post `postId`. */
export function issueAddTicketNonce(ctx: AppContext, req: Pick<RestRequest, 'user' | 'auth'>, postId: number): Promise<string> {
  return createNonce(ctx, req, action('add_ticket_nonce', postId));
}

/** `edit_ticket_nonce` and `remove_ticket_nonce` for one ticket. */
export async function issueTicketNonces(ctx: AppContext, req: Pick<RestRequest, 'user' | 'auth'>, ticketId: number): Promise<Record<string, string>> {
  return {
    edit_ticket_nonce: await createNonce(ctx, req, action('edit_ticket_nonce', ticketId)),
    remove_ticket_nonce: await createNonce(ctx, req, action('remove_ticket_nonce', ticketId)),
  };
}

/** True when `nonce` is a live nonce of `name` for post/ticket `id` and this user. */
export async function ticketNonceValid(ctx: AppContext, req: Pick<RestRequest, 'user' | 'auth'>, name: TicketNonceAction, id: number, nonce: unknown): Promise<boolean> {
  return (await verifyNonce(ctx, req, action(name, id), nonce)) !== false;
}
