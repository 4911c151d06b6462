/**
 * @module namespaces/seo/access
 * `edit_post` for a post of any declared type, from the type's capability base (`tribe_event` →
 * `edit_tribe_events`, `edit_others_tribe_events`, …; `post` when the type declares none).
 */
import type { AppContext } from '../../app-context.js';
import type { RestUser } from '../../rest/route.js';

const PUBLISHED = new Set(['publish', 'future']);

export function capabilityPlural(ctx: AppContext, type: string): string {
  if (type === 'page') return 'pages';
  const base = ctx.areas.postTypes.get(type)?.capabilityType;
  return base ? `${base}s` : 'posts';
}

export function canEditPostOfAnyArea(ctx: AppContext, user: RestUser | null, post: { type: string; author: number; status: string }): boolean {
  if (!user) return false;
  const plural = capabilityPlural(ctx, post.type);
  const own = post.author === user.id;
  if (!user.can(own ? `edit_${plural}` : `edit_others_${plural}`)) return false;
  if (PUBLISHED.has(post.status) && !user.can(`edit_published_${plural}`)) return false;
  if (post.status === 'private' && !own && !user.can(`edit_private_${plural}`)) return false;
  return true;
}
