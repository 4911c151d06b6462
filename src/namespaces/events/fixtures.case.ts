/**
 * @module namespaces/events/fixtures.case
 * Test fixtures of the events area (imported by `*.test.ts` only): media attachments, which this
 * service has no upload route for.
 */
import type { TestApp } from '../../test-support/harness.js';

let counter = 0;

/** Inserts an image attachment whose file is at `url` and returns its ID. */
export async function insertAttachment(t: TestApp, url: string): Promise<number> {
  const stamp = '2025-01-01 10:00:00';
  const row = await t.db
    .insertInto('posts')
    .values({
      type: 'attachment', status: 'inherit', slug: `attachment-${++counter}-${Date.now()}`, title: url.split('/').pop() ?? 'image', content: '', excerpt: '',
      author: t.admin.id, parent: 0, password: '', menu_order: 0, date: stamp, date_gmt: stamp, modified: stamp, modified_gmt: stamp, image_url: url,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
