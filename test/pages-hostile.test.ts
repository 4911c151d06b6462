/**
 * The pages outside the API (admin screens, archives, `/?p=`) with hostile query values, signed in and
 * as a visitor, GET and POST: none answers 5xx or throws. The route fuzzer (`test/route-fuzz.test.ts`)
 * covers the API.
 */
import { expect, it } from 'vitest';
import { signInForTest } from '../src/auth/test-sessions.js';
import { seedFuzzSite } from '../src/test-support/fuzz-site.js';
import { startTestApp } from '../src/test-support/harness.js';

it('pages outside the API answer hostile query values without a server error', async () => {
  const t = await startTestApp('sqlite');
  await seedFuzzSite(t);
  const { cookie } = await signInForTest(t.ctx, t.admin.id);
  const junk = ['', 'abc', '-1', '0', '1e3', '99999999999999999999', '%ZZ', '%00', '..', 'x'.repeat(5000), '%E2%80%AE', 'a[]=1', '<script>', "' OR 1=1 --"];
  const bases = ['/wp-admin/edit.php?post_type=', '/wp-admin/edit.php?post_type=tribe_events&paged=', '/wp-admin/edit.php?post_type=tribe_events&seo_filter=', '/wp-admin/edit.php?post_type=tribe_events&tribe_events_cat=',
    '/wp-admin/post.php?action=edit&post=', '/wp-admin/admin.php?page=', '/wp-admin/admin.php?page=wc-admin&path=', '/wp-admin/admin.php?page=wc-admin&path=/analytics/products&filter=single_product&products=',
    '/wp-admin/admin.php?page=wc-admin&path=/analytics/customers&after=', '/wp-admin/admin.php?page=wpseo_integrations&code=', '/wp-admin/admin.php?page=eventsuite-extensions&marketplace-connect=',
    '/author/', '/author/admin/page/', '/?p=', '/?page_id=', '/events/category/', '/tag/', '/events/tag/', '/events/category/x/month/', '/event/'];
  const bad: string[] = [];
  for (const b of bases) for (const j of junk) for (const headers of [{ cookie }, {}]) {
    for (const method of ['GET', 'POST'] as const) {
      const url = b + (b.endsWith('/') && !b.includes('?') ? `${encodeURIComponent(j)}/` : j);
      let res;
      try {
        res = await t.app.inject({ method, url, headers: { ...headers, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, ...(method === 'POST' ? { payload: `do=connect&_wpnonce=x&post_title=${encodeURIComponent(j)}` } : {}) });
      } catch (e) { bad.push(`THROW ${method} ${url.slice(0, 100)} ${e}`); continue; }
      if (res.statusCode >= 500) bad.push(`${res.statusCode} ${method} ${url.slice(0, 120)} ${res.body.slice(0, 200)}`);
    }
  }
  expect(bad).toEqual([]);
  await t.close();
}, 300_000);
