import { describe, expect, it } from 'vitest';
import { Areas } from '../areas.js';
import { allAreas } from '../namespaces/index.js';
import { MAX_CACHED_ROLE_LISTS, ROLES, RoleTable, canEditUser } from './roles.js';
import type { RestUser } from '../rest/route.js';

const table = new RoleTable(new Areas(allAreas()));
const capabilitiesOf = (roles: string[]) => table.capabilitiesOf(roles);
const can = (role: string, cap: string) => capabilitiesOf([role]).has(cap);

describe('roles and capabilities', () => {
  it('knows the WordPress, calendar and shop roles', () => {
    expect(Object.keys(ROLES).sort()).toEqual(['administrator', 'author', 'contributor', 'customer', 'editor', 'shop_manager', 'subscriber']);
  });

  it.each([
    ['administrator', ['manage_options', 'edit_users', 'list_users', 'edit_others_posts', 'upload_files', 'tribe_manage_attendees', 'manage_woocommerce', 'administrator']],
    ['editor', ['edit_others_posts', 'publish_pages', 'manage_categories', 'upload_files', 'read_private_posts', 'editor']],
    ['author', ['upload_files', 'publish_posts', 'edit_published_posts', 'delete_published_posts', 'edit_posts']],
    ['contributor', ['edit_posts', 'delete_posts', 'read']],
    ['subscriber', ['read']],
    ['shop_manager', ['manage_woocommerce', 'edit_products', 'edit_others_shop_orders', 'list_users', 'edit_posts']],
    ['customer', ['read']],
  ])('%s holds its capabilities', (role, caps) => {
    for (const cap of caps) expect(can(role, cap), cap).toBe(true);
  });

  it.each([
    ['editor', ['manage_options', 'edit_users', 'list_users', 'tribe_manage_attendees', 'manage_woocommerce']],
    ['author', ['edit_others_posts', 'manage_categories', 'publish_pages']],
    ['contributor', ['upload_files', 'publish_posts']],
    ['subscriber', ['edit_posts']],
    ['shop_manager', ['manage_options', 'edit_users', 'edit_tribe_events']],
    ['customer', ['edit_posts']],
  ])('%s lacks what it should not have', (role, caps) => {
    for (const cap of caps) expect(can(role, cap), cap).toBe(false);
  });

  it('maps the calendar post types like post capabilities', () => {
    const all = ['edit', 'edit_others', 'publish', 'read_private', 'delete', 'delete_others', 'delete_published', 'edit_published', 'delete_private', 'edit_private'];
    for (const pt of ['tribe_events', 'tribe_venues', 'tribe_organizers']) {
      for (const verb of all) {
        expect(can('administrator', `${verb}_${pt}`)).toBe(true);
        expect(can('editor', `${verb}_${pt}`)).toBe(true);
      }
      expect(['edit', 'publish', 'delete', 'delete_published', 'edit_published'].every((v) => can('author', `${v}_${pt}`))).toBe(true);
      expect(can('author', `edit_others_${pt}`)).toBe(false);
      expect(can('contributor', `edit_${pt}`)).toBe(true);
      expect(can('contributor', `publish_${pt}`)).toBe(false);
      expect(can('subscriber', `edit_${pt}`)).toBe(false);
    }
  });

  it('takes post-type and role capabilities from the enabled areas only', () => {
    const areas = new Areas(allAreas(), ['tickets']);
    const roles = new RoleTable(areas);
    expect(roles.capabilitiesOf(['administrator']).has('tribe_manage_attendees')).toBe(false);
    expect(roles.capabilitiesOf(['administrator']).has('edit_tribe_events')).toBe(true);
    areas.setEnabled('tickets', true);
    expect(roles.capabilitiesOf(['administrator']).has('tribe_manage_attendees')).toBe(true);
    expect(new RoleTable().capabilitiesOf(['editor']).has('edit_tribe_events')).toBe(false);
  });

  it('grants nothing for unknown roles and unions several roles', () => {
    expect(capabilitiesOf(['pirate']).size).toBe(0);
    const both = capabilitiesOf(['subscriber', 'shop_manager']);
    expect(both.has('manage_woocommerce') && both.has('subscriber') && both.has('shop_manager')).toBe(true);
  });

  it('edit_user: oneself always, others only with edit_users', () => {
    const user = (id: number, caps: string[]): RestUser => ({ id, login: `u${id}`, email: '', displayName: '', roles: [], can: (c) => caps.includes(c) });
    expect(canEditUser(user(2, []), 2)).toBe(true);
    expect(canEditUser(user(2, []), 3)).toBe(false);
    expect(canEditUser(user(2, ['edit_users']), 3)).toBe(true);
    expect(canEditUser(null, 3)).toBe(false);
  });

  it('caches the capabilities of at most its bound of role lists', () => {
    const roles = new RoleTable(new Areas(allAreas()));
    for (let i = 0; i < 10_000; i++) expect(roles.capabilitiesOf(['editor', `custom_${i}`]).has('edit_others_posts')).toBe(true);
    expect(roles.cachedCount).toBeLessThanOrEqual(MAX_CACHED_ROLE_LISTS);
    expect(roles.capabilitiesOf(['subscriber']).has('read')).toBe(true);
  });
});
