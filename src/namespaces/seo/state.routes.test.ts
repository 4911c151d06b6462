import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { insertPost } from '../oembed/oembed-fixtures.js';
import { seoService } from './index.js';
import { getSeoOption, getUserValue, setSeoOption } from './store.js';

const NS = '/seo/v1';

describe.each(DIALECTS)('seo/v1 configuration and state routes on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let subscriber: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    t = await startTestApp(engine);
    editor = await t.createUser('editor');
    subscriber = await t.createUser('subscriber');
    author = await t.createUser('author');
  });
  afterAll(() => t.close());

  describe('POST /seo/v1/configuration/site_representation', () => {
    it('answers 401 signed out and 403 for an editor (wpseo_manage_options)', async () => {
      expect((await t.request('POST', `${NS}/configuration/site_representation`, { json: { company_or_person: 'company' } })).status).toBe(401);
      const res = await t.request('POST', `${NS}/configuration/site_representation`, { json: { company_or_person: 'company' }, as: editor });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_forbidden');
    });

    it('refuses a company_or_person outside the enum and changes nothing', async () => {
      const res = await t.request('POST', `${NS}/configuration/site_representation`, { json: { company_or_person: 'robot', company_name: 'X' }, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(await getSeoOption(t.ctx, 'company_name')).toBe('');
    });

    it('stores the supplied fields: 200 {success, status}', async () => {
      const res = await t.request('POST', `${NS}/configuration/site_representation`, {
        json: { company_or_person: 'company', company_name: 'Harbour Events', company_logo: 'https://example.test/logo.png', company_logo_id: 7 },
        as: t.admin,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, status: 200 });
      expect(await getSeoOption(t.ctx, 'company_name')).toBe('Harbour Events');
      expect(await getSeoOption(t.ctx, 'company_logo_id')).toBe(7);
    });

    it('reports description as a failure with HTTP 400 mirroring the body (the original says 500: never a 5xx for bad input)', async () => {
      const res = await t.request('POST', `${NS}/configuration/site_representation`, { json: { company_or_person: 'person', description: 'About' }, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, status: 400, error: 'Could not save some options in the database', failures: ['description'] });
    });
  });

  describe('POST /seo/v1/configuration/social_profiles', () => {
    it('saves valid profiles inside a json wrapper; a twitter URL becomes the handle', async () => {
      const res = await t.request('POST', `${NS}/configuration/social_profiles`, {
        json: { facebook_site: 'https://facebook.com/harbour', twitter_site: 'https://twitter.com/harbour_ev', other_social_urls: ['https://mastodon.social/@harbour', ''] },
        as: t.admin,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ json: { success: true, status: 200 } });
      expect(await getSeoOption(t.ctx, 'twitter_site')).toBe('harbour_ev');
      expect(await getSeoOption(t.ctx, 'other_social_urls')).toEqual(['https://mastodon.social/@harbour']);
    });

    it('lists every invalid value in failures (HTTP 200) and saves none of them', async () => {
      const res = await t.request('POST', `${NS}/configuration/social_profiles`, {
        json: { facebook_site: 'not a url', twitter_site: 'bad handle!', other_social_urls: ['https://ok.example.com/x', 'javascript:alert(1)'] },
        as: t.admin,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ json: { success: false, status: 200, error: 'Could not save some options in the database', failures: ['facebook_site', 'twitter_site', 'other_social_urls-1'] } });
      expect(await getSeoOption(t.ctx, 'facebook_site')).toBe('https://facebook.com/harbour');
    });

    it('accepts the largest list the client sends', async () => {
      const urls = Array.from({ length: 500 }, (_, i) => `https://social${i}.example.com/p`);
      const res = await t.request('POST', `${NS}/configuration/social_profiles`, { json: { other_social_urls: urls }, as: t.admin });
      expect(res.body.json.success).toBe(true);
      expect((await getSeoOption<string[]>(t.ctx, 'other_social_urls')).length).toBe(500);
    });
  });

  describe('configuration state, tracking and capability', () => {
    it('check_capability: success for a user the caller may edit, 403 in the body otherwise (HTTP 200)', async () => {
      const ok = await t.request('GET', `${NS}/configuration/check_capability`, { query: { user_id: subscriber.id }, as: t.admin });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ success: true, status: 200 });
      expect((await t.request('GET', `${NS}/configuration/check_capability`, { as: t.admin })).body.code).toBe('rest_missing_callback_param');
    });

    it('enable_tracking needs a boolean and stores it', async () => {
      expect((await t.request('POST', `${NS}/configuration/enable_tracking`, { json: { tracking: 'maybe' }, as: t.admin })).status).toBe(400);
      const res = await t.request('POST', `${NS}/configuration/enable_tracking`, { json: { tracking: true }, as: t.admin });
      expect(res.body).toEqual({ success: true, status: 200 });
      expect(await getSeoOption(t.ctx, 'tracking')).toBe(true);
      expect(await getSeoOption(t.ctx, 'toggled_tracking')).toBe(true);
    });

    it('save/get_configuration_state round-trips; three steps end the first-time install', async () => {
      await t.request('POST', `${NS}/configuration/save_configuration_state`, { json: { finishedSteps: ['a', 'b'] }, as: t.admin });
      expect(await getSeoOption(t.ctx, 'first_time_install')).toBe(true);
      await t.request('POST', `${NS}/configuration/save_configuration_state`, { json: { finishedSteps: ['a', 'b', 'c'] }, as: t.admin });
      expect(await getSeoOption(t.ctx, 'first_time_install')).toBe(false);
      const res = await t.request('GET', `${NS}/configuration/get_configuration_state`, { as: t.admin });
      expect(res.body).toEqual({ success: true, status: 200, data: ['a', 'b', 'c'] });
    });
  });

  describe('per-user state', () => {
    it('introductions: unknown id → 400 [], known id stored per user', async () => {
      const bad = await t.request('POST', `${NS}/introductions/no-such-intro/seen`, { as: editor });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual([]);
      const res = await t.request('POST', `${NS}/introductions/google-docs-addon-upsell/seen`, { json: { is_seen: true }, as: editor });
      expect(res.body).toEqual({ json: { success: true } });
      expect((await t.request('POST', `${NS}/introductions/google-docs-addon-upsell/seen`, { as: subscriber })).status).toBe(403);
      // is_seen is not type-checked (the original's type `bool`), only read as a boolean.
      const loose = await t.request('POST', `${NS}/introductions/google-docs-addon-upsell/seen`, { json: { is_seen: 'yes' }, as: editor });
      expect(loose.status).toBe(200);
      expect(loose.body).toEqual({ json: { success: true } });
    });

    it('videohost_embed_permission: per user, posting the stored value again is 400', async () => {
      expect((await t.request('GET', `${NS}/videohost_embed_permission`, { as: editor })).body).toEqual({ json: { value: false } });
      expect((await t.request('POST', `${NS}/videohost_embed_permission`, { json: { value: true }, as: editor })).body).toEqual({ json: { success: true } });
      expect((await t.request('GET', `${NS}/videohost_embed_permission`, { as: editor })).body).toEqual({ json: { value: true } });
      expect((await t.request('GET', `${NS}/videohost_embed_permission`, { as: author })).body).toEqual({ json: { value: false } });
      const again = await t.request('POST', `${NS}/videohost_embed_permission`, { json: { value: true }, as: editor });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ json: { success: false } });
    });

    it('alerts/dismiss: unknown key → rest_invalid_param; a known key is stored once, and dismissing it again is still a success', async () => {
      expect((await t.request('POST', `${NS}/alerts/dismiss`, { json: { key: 'nope' }, as: editor })).body.code).toBe('rest_invalid_param');
      expect((await t.request('POST', `${NS}/alerts/dismiss`, { json: { key: 'webinar-promo-notification' }, as: editor })).body).toEqual({ success: true, status: 200 });
      const again = await t.request('POST', `${NS}/alerts/dismiss`, { json: { key: 'webinar-promo-notification' }, as: editor });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ success: true, status: 200 });
      expect(await getUserValue(t.ctx.db, editor.id, '_yoast_alerts_dismissed', [])).toEqual(['webinar-promo-notification']);
    });
  });

  describe('site state', () => {
    it('new-content-type-visibility: dismisses a new post type; others are "not new"', async () => {
      await setSeoOption(t.ctx, 'new_post_types', ['tribe_events', 'tribe_venue']);
      const res = await t.request('POST', `${NS}/new-content-type-visibility/dismiss-post-type`, { json: { postTypeName: 'tribe_events' }, as: editor });
      expect(res.body).toEqual({ message: 'Post type is no longer new.', success: true, status: 200 });
      expect(await getSeoOption(t.ctx, 'new_post_types')).toEqual(['tribe_venue']);
      const again = await t.request('POST', `${NS}/new-content-type-visibility/dismiss-post-type`, { json: { postTypeName: 'tribe_events' }, as: editor });
      expect(again.body).toEqual({ message: 'Post type is not new.', success: true, status: 200 });
    });

    it('new-content-type-visibility: a post type or taxonomy the site does not have is rest_invalid_param', async () => {
      await setSeoOption(t.ctx, 'new_taxonomies', ['tribe_events_cat']);
      const type = await t.request('POST', `${NS}/new-content-type-visibility/dismiss-post-type`, { json: { postTypeName: 'no_such_type' }, as: editor });
      expect(type.status).toBe(400);
      expect(type.body.code).toBe('rest_invalid_param');
      expect(Object.keys(type.body.data.params)).toEqual(['postTypeName']);
      const tax = await t.request('POST', `${NS}/new-content-type-visibility/dismiss-taxonomy`, { json: { taxonomyName: 'no_such_taxonomy' }, as: editor });
      expect(tax.status).toBe(400);
      expect(tax.body.code).toBe('rest_invalid_param');
      const ok = await t.request('POST', `${NS}/new-content-type-visibility/dismiss-taxonomy`, { json: { taxonomyName: 'tribe_events_cat' }, as: editor });
      expect(ok.body).toEqual({ message: 'Taxonomy is no longer new.', success: true, status: 200 });
      expect(await getSeoOption(t.ctx, 'new_taxonomies')).toEqual([]);
    });

    it('integrations/set_active stores <integration>_integration_active', async () => {
      const res = await t.request('POST', `${NS}/integrations/set_active`, { json: { active: false, integration: 'semrush' }, as: t.admin });
      expect(res.body).toEqual({ json: { success: true, status: 200 } });
      expect(await getSeoOption(t.ctx, 'semrush_integration_active')).toBe(false);
      await t.request('POST', `${NS}/integrations/set_active`, { json: { active: true, integration: 'semrush' }, as: t.admin });
      const bad = await t.request('POST', `${NS}/integrations/set_active`, { json: { active: true, integration: 'nope' }, as: t.admin });
      expect(bad.status).toBe(200);
      expect(bad.body).toEqual({ json: { success: false, status: 500, error: 'Could not save the option in the database' } });
    });

    it('meta/search: needs post_id and edit rights; lists matching custom fields', async () => {
      const post = await insertPost(t.db, { author: author.id });
      await seoService.setPostFields(t.ctx, post, { focusKeyphrase: 'harbour jazz', metaDescription: 'Jazz on the harbour' });
      expect((await t.request('GET', `${NS}/meta/search`, { as: t.admin })).status).toBe(403);
      expect((await t.request('GET', `${NS}/meta/search`, { query: { post_id: post }, as: subscriber })).status).toBe(403);
      const res = await t.request('GET', `${NS}/meta/search`, { query: { post_id: post, query: '_yoast_wpseo_f' }, as: t.admin });
      expect(res.body).toEqual({ meta: [{ key: '_yoast_wpseo_focuskw', value: 'harbour jazz' }] });
      // An empty query skips `_`-prefixed (hidden) fields.
      expect((await t.request('GET', `${NS}/meta/search`, { query: { post_id: post }, as: t.admin })).body).toEqual({ meta: [] });
    });

    it('workouts: GET the stored data, POST null without an add-on; editors only', async () => {
      expect((await t.request('GET', `${NS}/workouts`, { as: editor })).body).toEqual({ json: { configuration: { finishedSteps: [] } } });
      expect((await t.request('POST', `${NS}/workouts`, { as: editor })).body).toEqual({ json: null });
      expect((await t.request('GET', `${NS}/workouts`, { as: author })).status).toBe(403);
    });

    it('import/{plugin}/{type}: no importer exists for plugins this site does not have → 404 rest_no_route', async () => {
      const res = await t.request('POST', `${NS}/import/aioseo/posts`, { as: t.admin });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest_no_route');
      expect((await t.request('POST', `${NS}/import/aioseo/posts`, { as: editor })).status).toBe(403);
    });
  });
});
