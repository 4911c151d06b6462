/**
 * The member data of one list as the original's `MC4WP_List_Data_Mapper::map_list` builds it: the
 * list's own merge fields only, formatted by type; every interest format of the original's
 * `sample-code-snippets/forms/interests-data-format.php`; marketing permissions; language; and
 * `mc4wp_add_name_data`.
 */
import { describe, expect, it } from 'vitest';
import { SignupFatalError } from './field-formatter.js';
import { mapSubscriber, withNameData, type ListFactsSource } from './list-data-mapper.js';
import type { InterestCategory, MarketingPermission, MergeField } from './list-facts.js';

const NOW = new Date('2026-03-10T12:00:00Z');

function facts(mergeFields: MergeField[], categories: InterestCategory[] = [], permissions: MarketingPermission[] = []) {
  const asked: string[] = [];
  const source: ListFactsSource = {
    mergeFields: async () => (asked.push('merge-fields'), mergeFields),
    interestCategories: async () => (asked.push('interest-categories'), categories),
    marketingPermissions: async () => (asked.push('marketing-permissions'), permissions),
  };
  return { source, asked };
}

const EMAIL_FIELD: MergeField = { tag: 'EMAIL', type: 'email' };
const CATEGORY: InterestCategory = { id: 'cat1', title: 'Topics', type: 'checkboxes', interests: [['int1', 'Music'], ['int2', 'Art'], ['123', 'Numbers']] };

describe('list data mapping (MC4WP_List_Data_Mapper)', () => {
  it('sends only the list merge fields that were filled in, each formatted for its type', async () => {
    const { source, asked } = facts([
      EMAIL_FIELD,
      { tag: 'FNAME', type: 'text' },
      { tag: 'COLORS', type: 'text' },
      { tag: 'ADDRESS', type: 'address' },
      { tag: 'BIRTHDAY', type: 'birthday', options: { date_format: 'DD/MM' } },
      { tag: 'SINCE', type: 'date' },
      { tag: 'SIZE', type: 'dropdown' },
      { tag: 'PHONE', type: 'phone' },
    ]);
    const data = { EMAIL: 'ann@example.org', FNAME: 'Ann', COLORS: ['red', 'blue'], ADDRESS: { addr1: '1 Main St', city: 'Springfield' }, BIRTHDAY: '29/07', SINCE: '5/6/2020', SIZE: ['S', 'M'], PHONE: '0', OTHER: 'not a field' };
    const subscriber = await mapSubscriber(data, source, NOW);
    expect(subscriber).toEqual({
      email_address: 'ann@example.org',
      interests: {},
      marketing_permissions: [],
      merge_fields: {
        FNAME: 'Ann',
        COLORS: 'red, blue',
        ADDRESS: { addr1: '1 Main St', city: 'Springfield', state: '', zip: '' },
        BIRTHDAY: '07/29',
        SINCE: '2020-05-06',
        // Lists are joined for text fields only; other types take the value as posted.
        SIZE: ['S', 'M'],
      },
    });
    // Interests and permissions are looked up only when posted.
    expect(asked).toEqual(['merge-fields']);
  });

  it('finds interests by id as key (on/off), by id as value, and under their category by id or name', async () => {
    const map = async (INTERESTS: unknown) => (await mapSubscriber({ EMAIL: 'a@b.cd', INTERESTS }, facts([EMAIL_FIELD], [CATEGORY]).source, NOW)).interests;
    expect(await map({ int1: '1', int2: 'false' })).toEqual({ int1: true, int2: false });
    expect(await map(['int2'])).toEqual({ int2: true });
    expect(await map({ cat1: 'Music' })).toEqual({ int1: true });
    expect(await map({ cat1: 'int2|Music' })).toEqual({ int1: true, int2: true });
    expect(await map({ cat1: ['Art', 'nothing'] })).toEqual({ int2: true });
    // Ids are compared loosely (numeric text as numbers), names exactly.
    expect(await map(['0123'])).toEqual({ 123: true });
    expect(await map({ cat1: 'music' })).toEqual({});
    expect(await map({ other: 'Music' })).toEqual({});
  });

  it('stops as the original does on INTERESTS sent as text (in_array on a string), once the list has interests', async () => {
    await expect(mapSubscriber({ EMAIL: 'a@b.cd', INTERESTS: 'int1' }, facts([EMAIL_FIELD], [CATEGORY]).source, NOW)).rejects.toThrow(SignupFatalError);
    expect((await mapSubscriber({ EMAIL: 'a@b.cd', INTERESTS: 'int1' }, facts([EMAIL_FIELD], []).source, NOW)).interests).toEqual({});
  });

  it('marketing permissions by id or text, language from MC_LANGUAGE', async () => {
    const permissions = [
      { marketing_permission_id: 'mp1', text: 'Email' },
      { marketing_permission_id: 'mp2', text: 'Direct Mail' },
      { marketing_permission_id: 'mp3', text: 'Customized Online Advertising' },
    ];
    const { source } = facts([EMAIL_FIELD], [], permissions);
    const subscriber = await mapSubscriber({ EMAIL: 'a@b.cd', MARKETING_PERMISSIONS: 'mp1, Direct Mail', MC_LANGUAGE: 'nl_NL' }, source, NOW);
    expect(subscriber.marketing_permissions).toEqual([
      { marketing_permission_id: 'mp1', enabled: true },
      { marketing_permission_id: 'mp2', enabled: true },
    ]);
    expect(subscriber.language).toBe('nl');
    await expect(mapSubscriber({ EMAIL: 'a@b.cd', MC_LANGUAGE: ['nl'] }, source, NOW)).rejects.toThrow(SignupFatalError);
  });

  it('NAME fills FNAME and LNAME (split at the first space), FNAME and LNAME fill NAME', () => {
    expect(withNameData({ NAME: 'Ann van Dijk' })).toEqual({ NAME: 'Ann van Dijk', FNAME: 'Ann', LNAME: 'van Dijk' });
    expect(withNameData({ NAME: 'Ann' })).toEqual({ NAME: 'Ann', FNAME: 'Ann' });
    expect(withNameData({ NAME: 'Ann Lee', FNAME: 'Anna' })).toEqual({ NAME: 'Ann Lee', FNAME: 'Anna' });
    expect(withNameData({ FNAME: 'Ann', LNAME: 'Lee' })).toEqual({ FNAME: 'Ann', LNAME: 'Lee', NAME: 'Ann Lee' });
    expect(() => withNameData({ NAME: ['Ann'] })).toThrow(SignupFatalError);
  });
});
