import type { AppContext } from '../../app-context.js';
import { postDatePair, siteTimeZone } from '../../content/posts.js';

/** `YYYY-MM-DD HH:MM:SS` UTC of the app's clock. */
export function gmtNow(ctx: { now(): Date }): string {
  return ctx.now().toISOString().slice(0, 19).replace('T', ' ');
}

/** The site's local date, `YYYY-MM-DD` (what the original's `today` in date options is). */
export async function siteToday(ctx: Pick<AppContext, 'now' | 'options'>): Promise<string> {
  return postDatePair(ctx.now(), await siteTimeZone(ctx.options)).local.slice(0, 10);
}
