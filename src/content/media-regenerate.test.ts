/**
 * Making an image's copies again, as WP-CLI's `wp media regenerate` does (features/media-regenerate.feature
 * of wp-cli/media-command): sizes come back and open, `--only-missing` makes only what is missing and
 * leaves the scaled copy alone, old size files go unless kept, a large JPEG loaded before scaled
 * copies gets its `-scaled` file (`wp_create_image_subsizes`), and the original is never touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';
import { gradientJpeg, serveFiles } from '../test-support/images.js';
import { regenerateImage } from './media-regenerate.js';
import { storedSizes, type StoredSize } from './media.js';

const NOW = new Date('2025-04-01T12:00:00Z');
const FOLDER_URL = 'http://example.test/wp-content/uploads/2025/04/';
const FULL = { onlyMissing: false, skipDelete: false };
const ONLY_MISSING = { onlyMissing: true, skipDelete: true };

describe.each(DIALECTS)('regenerateImage on %s', (engine) => {
  let t: TestApp;
  let uploads: string;
  let folder: string;
  const files = new Map<string, Buffer>();
  let server: Awaited<ReturnType<typeof serveFiles>>;

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-regenerate-'));
    folder = path.join(uploads, '2025', '04');
    server = await serveFiles(files);
    t = await startTestApp(engine, { environment: 'local', uploadsDir: uploads }, { now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  /** An event whose image is side-loaded from `file` (served at `/<file>`); answers the event. */
  async function eventWithImage(file: string, body: Buffer): Promise<{ id: number; image: { id: number; url: string } & Record<string, unknown> }> {
    files.set(`/${file}`, body);
    const res = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: file, image: `${server.origin}/${file}`, start_date: '2025-05-01 10:00:00', end_date: '2025-05-01 12:00:00' },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  const record = (id: number) => t.db.selectFrom('media_files').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
  const eventImage = async (id: number) => (await t.request('GET', `/eventsuite/events/v1/events/${id}`)).body.image;

  /** The image as the library kept it before it made sizes: no size files, none recorded. */
  async function withoutSizes(id: number): Promise<StoredSize[]> {
    const sizes = storedSizes((await record(id)).sizes);
    for (const s of sizes) fs.rmSync(path.join(folder, s.file));
    await t.db.updateTable('media_files').set({ sizes: '' }).where('post_id', '=', id).execute();
    return sizes;
  }

  it('gives an image loaded before the library made sizes its sizes back; each opens, and the event shows them', async () => {
    const event = await eventWithImage('stage.jpg', gradientJpeg(400, 300));
    const shown = event.image;
    const made = await withoutSizes(event.image.id);
    expect(made.map((s) => s.file)).toEqual(['stage-300x225.jpg', 'stage-150x150.jpg']);
    expect((await eventImage(event.id)).sizes).toBeUndefined();

    const outcome = await regenerateImage(t.ctx, event.image.id, FULL);
    expect(outcome).toEqual({ status: 'regenerated', made: ['medium', 'thumbnail'], notes: [] });
    expect(storedSizes((await record(event.image.id)).sizes)).toEqual(made);
    for (const size of made) {
      const file = await t.app.inject({ method: 'GET', url: new URL(`${FOLDER_URL}${size.file}`).pathname });
      expect(file.statusCode, size.file).toBe(200);
      expect(file.headers['content-type']).toBe('image/jpeg');
      expect(file.rawPayload.length).toBe(size.filesize);
      expect(jpeg.decode(file.rawPayload)).toMatchObject({ width: size.width, height: size.height });
    }
    expect(await eventImage(event.id)).toEqual(shown);
  });

  it('with onlyMissing makes only the sizes the image lacks and rewrites nothing else; then finds nothing to do', async () => {
    const event = await eventWithImage('only.jpg', gradientJpeg(400, 300));
    const id = event.image.id;
    const before = storedSizes((await record(id)).sizes);
    fs.rmSync(path.join(folder, 'only-150x150.jpg'));
    const kept = fs.statSync(path.join(folder, 'only-300x225.jpg'));
    const original = fs.readFileSync(path.join(folder, 'only.jpg'));

    expect(await regenerateImage(t.ctx, id, ONLY_MISSING)).toEqual({ status: 'regenerated', made: ['thumbnail'], notes: [] });
    expect(fs.existsSync(path.join(folder, 'only-150x150.jpg'))).toBe(true);
    const after = fs.statSync(path.join(folder, 'only-300x225.jpg'));
    expect([after.ino, after.mtimeMs]).toEqual([kept.ino, kept.mtimeMs]);
    expect(storedSizes((await record(id)).sizes)).toEqual(before);
    expect(fs.readFileSync(path.join(folder, 'only.jpg')).equals(original)).toBe(true);

    // A size the record does not name is made, the others kept as recorded.
    await t.db.updateTable('media_files').set({ sizes: JSON.stringify(before.filter((s) => s.name !== 'medium')) }).where('post_id', '=', id).execute();
    expect(await regenerateImage(t.ctx, id, ONLY_MISSING)).toMatchObject({ status: 'regenerated', made: ['medium'] });
    expect(storedSizes((await record(id)).sizes).map((s) => s.name).sort()).toEqual(['medium', 'thumbnail']);
    expect(await regenerateImage(t.ctx, id, ONLY_MISSING)).toEqual({ status: 'unchanged' });
  });

  it('in full deletes the size files the new sizes no longer name (never the original); skipDelete keeps them', async () => {
    const event = await eventWithImage('old.jpg', gradientJpeg(400, 300));
    const id = event.image.id;
    const original = fs.readFileSync(path.join(folder, 'old.jpg'));
    const sizes = storedSizes((await record(id)).sizes);
    // Sizes of another time: a medium of other proportions, and a size no longer registered.
    const stale = [{ name: 'medium', file: 'old-280x210.jpg', width: 280, height: 210, filesize: 3 }, { name: 'gone', file: 'old-50x50.jpg', width: 50, height: 50, filesize: 3 }];
    const withStale = async () => {
      for (const s of stale) fs.writeFileSync(path.join(folder, s.file), 'old');
      await t.db.updateTable('media_files').set({ sizes: JSON.stringify([...stale, sizes.find((s) => s.name === 'thumbnail')]) }).where('post_id', '=', id).execute();
    };

    await withStale();
    expect(await regenerateImage(t.ctx, id, { onlyMissing: false, skipDelete: true })).toMatchObject({ status: 'regenerated' });
    for (const s of stale) expect(fs.existsSync(path.join(folder, s.file)), s.file).toBe(true);
    expect(storedSizes((await record(id)).sizes)).toEqual(sizes);

    await withStale();
    expect(await regenerateImage(t.ctx, id, FULL)).toMatchObject({ status: 'regenerated' });
    for (const s of stale) expect(fs.existsSync(path.join(folder, s.file)), s.file).toBe(false);
    expect(storedSizes((await record(id)).sizes)).toEqual(sizes);
    for (const s of sizes) expect(fs.existsSync(path.join(folder, s.file)), s.file).toBe(true);
    expect(fs.readFileSync(path.join(folder, 'old.jpg')).equals(original)).toBe(true);
  });

  it('gives a large JPEG loaded before scaled copies its -scaled file, which the attachment and the event then name; onlyMissing does not', async () => {
    const big = gradientJpeg(2600, 120);
    const event = await eventWithImage('big.jpg', big);
    const id = event.image.id;
    expect(event.image).toMatchObject({ url: `${FOLDER_URL}big-scaled.jpg`, original_image: 'big.jpg', width: 2560 });
    const sizes = await withoutSizes(id);
    // As loaded before: the original is the attachment's file, with no scaled copy beside it.
    fs.rmSync(path.join(folder, 'big-scaled.jpg'));
    await t.db.updateTable('media_files').set({ path: '2025/04/big.jpg', width: 2600, height: 120, filesize: big.length, original_file: '' }).where('post_id', '=', id).execute();
    await t.db.updateTable('posts').set({ image_url: `${FOLDER_URL}big.jpg` }).where('image_url', '=', `${FOLDER_URL}big-scaled.jpg`).execute();
    expect(await eventImage(event.id)).toMatchObject({ url: `${FOLDER_URL}big.jpg`, width: 2600 });

    expect(await regenerateImage(t.ctx, id, ONLY_MISSING)).toMatchObject({ status: 'regenerated', made: sizes.map((s) => s.name) });
    expect(fs.existsSync(path.join(folder, 'big-scaled.jpg'))).toBe(false);
    expect(await record(id)).toMatchObject({ path: '2025/04/big.jpg', original_file: '' });

    expect(await regenerateImage(t.ctx, id, FULL)).toMatchObject({ status: 'regenerated' });
    expect(await record(id)).toMatchObject({ path: '2025/04/big-scaled.jpg', width: 2560, height: 118, original_file: 'big.jpg' });
    expect(jpeg.decode(fs.readFileSync(path.join(folder, 'big-scaled.jpg')))).toMatchObject({ width: 2560, height: 118 });
    expect(fs.readFileSync(path.join(folder, 'big.jpg')).equals(big)).toBe(true);
    expect(await eventImage(event.id)).toEqual(event.image);
    const attachment = await t.db.selectFrom('posts').select('image_url').where('id', '=', id).executeTakeFirstOrThrow();
    expect(attachment.image_url).toBe(`${FOLDER_URL}big-scaled.jpg`);
  });

  it('leaves out a copy whose name is another image\'s file, and keeps that file', async () => {
    const first = await eventWithImage('clash.jpg', gradientJpeg(400, 300));
    await withoutSizes(first.image.id);
    // Loaded meanwhile: an image whose own name is the first one's thumbnail name.
    const other = gradientJpeg(400, 300);
    const second = await eventWithImage('clash-150x150.jpg', other);
    expect(second.image.url).toBe(`${FOLDER_URL}clash-150x150.jpg`);

    const outcome = await regenerateImage(t.ctx, first.image.id, FULL);
    expect(outcome).toEqual({ status: 'regenerated', made: ['medium'], notes: ['clash-150x150.jpg is the file of another image; that copy was not made.'] });
    expect(fs.readFileSync(path.join(folder, 'clash-150x150.jpg')).equals(other)).toBe(true);
    expect(storedSizes((await record(first.image.id)).sizes).map((s) => s.file)).toEqual(['clash-300x225.jpg']);
    expect(await eventImage(second.id)).toEqual(second.image);
  });

  it('answers missing for an image whose original is gone, and skipped for a type no editor here writes', async () => {
    const gone = await eventWithImage('gone.jpg', gradientJpeg(400, 300));
    fs.rmSync(path.join(folder, 'gone.jpg'));
    expect(await regenerateImage(t.ctx, gone.image.id, FULL)).toEqual({ status: 'missing' });
    // Its sizes were not touched.
    expect(fs.existsSync(path.join(folder, 'gone-150x150.jpg'))).toBe(true);

    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([4, 0, 3, 0, 0, 0, 0]), Buffer.from([0x2c, 0, 0, 0, 0, 4, 0, 3, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b])]);
    const poster = await eventWithImage('poster.gif', gif);
    expect(await regenerateImage(t.ctx, poster.image.id, FULL)).toEqual({ status: 'skipped', reason: 'no editor available for image/gif.' });

    fs.writeFileSync(path.join(folder, 'gone.jpg'), 'not an image');
    expect(await regenerateImage(t.ctx, gone.image.id, FULL)).toEqual({ status: 'failed', reason: 'Read error while retrieving metadata.' });
  });
});
