/**
 * @module namespaces/tickets/tickets.public
 * What the tickets area offers other areas (sample content, templates): creating a ticket for a post
 * with the same rules as `POST /tickets`.
 */
import type { AppContext } from '../../app-context.js';
import { getPost } from '../../content/posts.js';
import type { RestError } from '../../rest/errors.js';
import { resolveProvider, RSVP, TRIBE_COMMERCE } from './providers.js';
import { createTicket } from './tickets.service.js';

export interface NewTicket {
  /** The post (event) the ticket is for. */
  postId: number;
  name: string;
  description?: string;
  /** Decimal text; a paid ticket when > 0. */
  price?: string;
  /** Seats; unlimited when omitted. */
  capacity?: number;
  /** `rsvp` or `tribe-commerce`; by default RSVP for free tickets, commerce for paid ones. */
  provider?: string;
}

/** Creates a ticket; the ticket ID, or a RestError when its post is missing or a field is invalid. */
export async function addTicket(ctx: AppContext, author: number, input: NewTicket): Promise<number | RestError | undefined> {
  const post = await getPost(ctx.db, input.postId);
  if (!post) return undefined;
  const paid = Number(input.price ?? '0') > 0;
  const provider = resolveProvider(input.provider) ?? (paid ? TRIBE_COMMERCE : RSVP);
  return createTicket(ctx, author, post, provider, {
    name: input.name,
    description: input.description ?? '',
    price: input.price ?? '0',
    ticket: input.capacity === undefined ? undefined : { mode: 'own', capacity: input.capacity },
  });
}
