/**
 * @module namespaces/mailing-list/list-facts
 * What the sign-up needs to know of a list on the list service, as the original's `MC4WP_MailChimp`
 * reads it: its merge fields (with EMAIL first), its interest categories with their interests, and
 * its marketing permissions. Each is kept a day per list (the original's transients); a failed call
 * gives none and is not kept, so the next sign-up asks again. The admin page's "Renew lists" forgets
 * them all.
 */
import type { AppContext } from '../../app-context.js';
import { MailinglistApiError, type MailinglistClient, type MergeFieldData } from '../../remote/mailinglist-client.js';

/** `HOUR_IN_SECONDS * 24`. */
export const LIST_FACTS_TTL_SECONDS = 24 * 60 * 60;

export type MergeField = MergeFieldData;

export interface InterestCategory {
  id: string;
  title?: string;
  type?: string;
  /** `[interest id, interest name]` in the service's order. */
  interests: [string, string][];
}

export interface MarketingPermission {
  marketing_permission_id: string;
  text: string;
}

type Kind = 'merge-fields' | 'interest-categories' | 'marketing-permissions';

const gmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

async function cached<T>(ctx: AppContext, listId: string, kind: Kind, fetchFacts: () => Promise<T[]>): Promise<T[]> {
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('mailinglist_list_cache')
    .select('value')
    .where('list_id', '=', listId)
    .where('kind', '=', kind)
    .where('expires_gmt', '>', gmt(now))
    .executeTakeFirst();
  if (row) {
    try {
      const value: unknown = JSON.parse(row.value);
      if (Array.isArray(value)) return value as T[];
    } catch {
      /* fetched again below */
    }
  }
  let facts: T[];
  try {
    facts = await fetchFacts();
  } catch (e) {
    if (e instanceof MailinglistApiError) return [];
    throw e;
  }
  const values = { value: JSON.stringify(facts), expires_gmt: gmt(new Date(now.getTime() + LIST_FACTS_TTL_SECONDS * 1000)) };
  await ctx.db
    .insertInto('mailinglist_list_cache')
    .values({ list_id: listId, kind, ...values })
    .onConflict((oc) => oc.columns(['list_id', 'kind']).doUpdateSet(values))
    .execute();
  return facts;
}

/** `get_list_merge_fields`: the list's merge fields, EMAIL first. */
export function listMergeFields(ctx: AppContext, api: MailinglistClient, listId: string): Promise<MergeField[]> {
  return cached(ctx, listId, 'merge-fields', async () => [
    { tag: 'EMAIL', name: 'Email address', required: true, type: 'email', options: {}, public: true },
    ...(await api.getMergeFields(listId)),
  ]);
}

/** `get_list_interest_categories`: a category whose interests cannot be read is kept without any. */
export function listInterestCategories(ctx: AppContext, api: MailinglistClient, listId: string): Promise<InterestCategory[]> {
  return cached(ctx, listId, 'interest-categories', async () => {
    const categories: InterestCategory[] = [];
    for (const category of await api.getInterestCategories(listId)) {
      let interests: [string, string][] = [];
      try {
        interests = (await api.getCategoryInterests(listId, category.id)).map((i) => [i.id, i.name]);
      } catch (e) {
        if (!(e instanceof MailinglistApiError)) throw e;
      }
      categories.push({ id: category.id, ...(category.title !== undefined ? { title: category.title } : {}), ...(category.type !== undefined ? { type: category.type } : {}), interests });
    }
    return categories;
  });
}

/** `get_list_marketing_permissions` (read off the list's first member, so none on an empty list). */
export function listMarketingPermissions(ctx: AppContext, api: MailinglistClient, listId: string): Promise<MarketingPermission[]> {
  return cached(ctx, listId, 'marketing-permissions', () => api.getMemberMarketingPermissions(listId));
}

/** `refresh_lists`: every list's facts are read afresh at the next sign-up. */
export async function forgetListFacts(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('mailinglist_list_cache').execute();
}
