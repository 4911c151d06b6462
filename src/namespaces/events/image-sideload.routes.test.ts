/**
 * Featured images given by URL: the original checks that the URL answers HEAD with an image type (for
 * users who may upload) and side-loads it into its media library; the image object then names the
 * site's own file, which opens. A local image server stands in for the remote host.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageFacts, sourceKey } from '../../content/media.js';
import { withOrientation } from '../../test-support/images.js';
import { down as unkeySources, up as keySources } from '../../storage/migrations/2026-11-28T0700-media-sizes.js';
import { insertAttachment } from './fixtures.case.js';
import { freePort } from '../../test-support/net.js';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2025-04-01T12:00:00Z');

/** A real PNG of `width` × `height` grey pixels. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** A real 400 × 300 JPEG (a gradient). */
const stageJpeg = (() => {
  const data = Buffer.alloc(400 * 300 * 4);
  for (let i = 0; i < 400 * 300; i++) data.set([(i % 400) * 0.6, (i / 400) * 0.8, 90, 255], i * 4);
  return jpeg.encode({ width: 400, height: 300, data }, 90).data;
})();

const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([4, 0, 3, 0, 0, 0, 0]), Buffer.from([0x2c, 0, 0, 0, 0, 4, 0, 3, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b])]);

describe('imageFacts', () => {
  it('reads the type and size from the bytes of PNG, GIF, JPEG and WebP files, and nothing else', () => {
    expect(imageFacts(png(5, 7))).toEqual({ mime: 'image/png', width: 5, height: 7 });
    expect(imageFacts(GIF)).toEqual({ mime: 'image/gif', width: 4, height: 3 });
    // JPEG: SOI, an APP0 segment, then a baseline frame header of 640 × 480.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0x01, 0xe0, 0x02, 0x80, 1, 1, 0x11, 0]);
    expect(imageFacts(jpeg)).toEqual({ mime: 'image/jpeg', width: 640, height: 480 });
    const webp = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WEBPVP8X', 'latin1'), Buffer.alloc(8), Buffer.from([99, 0, 0, 49, 0, 0])]);
    expect(imageFacts(webp)).toEqual({ mime: 'image/webp', width: 100, height: 50 });
    expect(imageFacts(Buffer.from('<html>not an image</html>'))).toBeUndefined();
    expect(imageFacts(Buffer.alloc(0))).toBeUndefined();
    // A PNG header claiming a side beyond what PNG allows (and what the database column holds).
    const huge = png(1, 1);
    huge.writeUInt32BE(0x80000000, 16);
    expect(imageFacts(huge)).toBeUndefined();
  });
});

describe.each(DIALECTS)('featured images by URL on %s', (engine) => {
  let t: TestApp;
  let author: TestUser;
  let contributor: TestUser;
  let server: http.Server;
  let origin: string;
  let uploads: string;
  const served = new Map<string, { type: string; body: Buffer; getType?: string }>();
  let gets = 0;

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-uploads-'));
    served.set('/photos/Harbour Fair.png', { type: 'image/png', body: png(6, 4) });
    served.set('/poster', { type: 'image/gif', body: GIF });
    served.set('/photos/stage.jpg', { type: 'image/jpeg', body: stageJpeg });
    served.set('/page.html', { type: 'text/html', body: Buffer.from('<p>hello</p>') });
    // Says it is a PNG when asked with HEAD, but sends a page.
    served.set('/liar.png', { type: 'image/png', body: Buffer.from('<p>gotcha</p>'), getType: 'text/html' });
    const port = await freePort();
    server = http.createServer((req, res) => {
      if (req.url === '/gzipped.png') {
        // Compressed on the wire: HEAD announces the encoding and sends nothing, GET sends gzip.
        const body = zlib.gzipSync(png(3, 3));
        res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip', 'content-length': body.length });
        return res.end(req.method === 'HEAD' ? undefined : body);
      }
      const file = served.get(decodeURIComponent(req.url ?? ''));
      if (!file) return res.writeHead(404).end();
      if (req.method === 'GET') gets++;
      res.writeHead(200, { 'content-type': req.method === 'HEAD' ? file.type : (file.getType ?? file.type), 'content-length': file.body.length });
      res.end(req.method === 'HEAD' ? undefined : file.body);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${port}`;
    t = await startTestApp(engine, { environment: 'local', uploadsDir: uploads }, { now: () => NOW });
    [author, contributor] = await Promise.all([t.createUser('author'), t.createUser('contributor')]);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const event = (json: Record<string, unknown>, as: TestUser = t.admin) =>
    t.request('POST', `${NS}/events`, { as, json: { title: 'Fair', start_date: '2025-05-01 10:00:00', end_date: '2025-05-01 12:00:00', ...json } });

  it('loads an image URL into the media library; the event names the site’s own file, which opens', async () => {
    const res = await event({ image: `${origin}/photos/Harbour%20Fair.png` }, author);
    expect(res.status).toBe(201);
    const image = res.body.image;
    const bytes = served.get('/photos/Harbour Fair.png')!.body;
    // The original's image object: the attachment's URL, ID and extension, and its file's size.
    expect(image).toEqual({ url: `http://example.test/wp-content/uploads/2025/04/Harbour-Fair.png`, id: expect.any(Number), extension: 'png', width: 6, height: 4, filesize: bytes.length });
    const file = await t.app.inject({ method: 'GET', url: new URL(image.url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect((await t.request('GET', `${NS}/events`, { query: { include: res.body.id } })).body.events[0].image).toEqual(image);
    expect(fs.existsSync(path.join(uploads, '2025', '04', 'Harbour-Fair.png'))).toBe(true);
    const row = await t.db.selectFrom('media_files').selectAll().where('post_id', '=', image.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ path: '2025/04/Harbour-Fair.png', mime: 'image/png', width: 6, height: 4, source_url: `${origin}/photos/Harbour%20Fair.png` });
    // The attachment ID and the file URL are this site's image from now on.
    expect((await event({ image: image.id })).body.image).toEqual(image);
    expect((await event({ image: image.url })).body.image).toEqual(image);
  });

  it('loads one source once, and gives another file of the same name a new name', async () => {
    const before = gets;
    const first = (await event({ image: `${origin}/poster` })).body.image;
    const again = (await event({ image: `${origin}/poster` })).body.image;
    expect(again).toEqual(first);
    expect(gets - before).toBe(1);
    served.set('/other/poster', { type: 'image/gif', body: GIF });
    const other = (await event({ image: `${origin}/other/poster` })).body.image;
    expect(other.url).toBe('http://example.test/wp-content/uploads/2025/04/poster-1.gif');
    expect(other.id).not.toBe(first.id);
  });

  it('side-loads the images of venues and organizers, also when created with the event', async () => {
    const venue = await t.request('POST', `${NS}/venues`, { as: t.admin, json: { venue: 'Pier', image: `${origin}/poster` } });
    expect(venue.status).toBe(201);
    expect(venue.body.image).toMatchObject({ url: expect.stringMatching(/^http:\/\/example\.test\/wp-content\/uploads\/2025\/04\/poster(-\d+)?\.gif$/), width: 4, height: 3 });
    const listed = (await t.request('GET', `${NS}/venues`, { query: { per_page: 50 } })).body.venues.find((v: { id: number }) => v.id === venue.body.id);
    expect(listed.image).toEqual(venue.body.image);
    const res = await event({ venue: { venue: 'Quay', image: `${origin}/photos/Harbour%20Fair.png` }, organizer: [{ organizer: 'Harbour Trust', image: `${origin}/poster` }] });
    expect(res.status).toBe(201);
    expect(res.body.venue.image).toMatchObject({ url: expect.stringMatching(/^http:\/\/example\.test\/wp-content\/uploads\//), width: 6, height: 4 });
    expect(res.body.organizer[0].image.url).toMatch(/^http:\/\/example\.test\/wp-content\/uploads\//);
  });

  it('refuses URLs that are not images, and URLs from users who may not upload (400, nothing created)', async () => {
    for (const image of [`${origin}/page.html`, `${origin}/missing.png`]) {
      const res = await event({ image });
      expect(res.status, image).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(['image']);
    }
    const refused = await event({ image: `${origin}/poster` }, contributor);
    expect(refused.status).toBe(400);
    expect(refused.body.data.params).toHaveProperty('image');
  });

  it('side-loads the image of a venue given as a keyed object, and refuses this site\'s files that are no images', async () => {
    const res = await event({ venue: { 0: { venue: 'Harbour Hall', image: `${origin}/poster` } } });
    expect(res.status).toBe(201);
    expect(res.body.venue.image.url).toMatch(/^http:\/\/example\.test\/wp-content\/uploads\//);
    const gzipped = await event({ image: `${origin}/gzipped.png` });
    expect(gzipped.status).toBe(201);
    expect(gzipped.body.image).toMatchObject({ extension: 'png', width: 3, height: 3 });
    const pdf = await insertAttachment(t, 'http://example.test/wp-content/uploads/2025/04/programme.pdf');
    for (const image of [pdf, 'http://example.test/wp-content/uploads/2025/04/programme.pdf']) expect((await event({ image })).status).toBe(400);
  });

  it('saves the event without the image when the file turns out not to be one, as the original does', async () => {
    const res = await event({ image: `${origin}/liar.png` });
    expect(res.status).toBe(201);
    expect(res.body.image).toBe(false);
    const withImage = (await event({ image: `${origin}/poster` })).body;
    const updated = await t.request('POST', `${NS}/events/${withImage.id}`, { as: t.admin, json: { image: `${origin}/liar.png` } });
    expect(updated.status).toBe(200);
    expect(updated.body.image).toEqual(withImage.image);
  });

  it('makes the smaller sizes WordPress makes; each size names a file of that size, which opens', async () => {
    const res = await event({ image: `${origin}/photos/stage.jpg` });
    expect(res.status).toBe(201);
    const image = res.body.image;
    const folder = 'http://example.test/wp-content/uploads/2025/04/';
    // Keys in the original's order: the attachment's, then its metadata's (sizes as WordPress makes them).
    expect(Object.keys(image)).toEqual(['url', 'id', 'extension', 'width', 'height', 'filesize', 'sizes']);
    expect(image).toMatchObject({ url: `${folder}stage.jpg`, extension: 'jpg', width: 400, height: 300, filesize: stageJpeg.length });
    expect(Object.keys(image.sizes)).toEqual(['medium', 'thumbnail']);
    expect(image.sizes.medium).toEqual({ width: 300, height: 225, 'mime-type': 'image/jpeg', filesize: expect.any(Number), url: `${folder}stage-300x225.jpg` });
    expect(image.sizes.thumbnail).toEqual({ width: 150, height: 150, 'mime-type': 'image/jpeg', filesize: expect.any(Number), url: `${folder}stage-150x150.jpg` });
    for (const size of Object.values<{ width: number; height: number; filesize: number; url: string }>(image.sizes)) {
      const file = await t.app.inject({ method: 'GET', url: new URL(size.url).pathname });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/jpeg');
      expect(file.rawPayload.length).toBe(size.filesize);
      expect(jpeg.decode(file.rawPayload)).toMatchObject({ width: size.width, height: size.height });
    }
    // Lists show the same object.
    expect((await t.request('GET', `${NS}/events/${res.body.id}`)).body.image).toEqual(image);
  });

  it('shows a photo stored turned upright: its upright copy is the file, the original beside it', async () => {
    served.set('/photos/turned.jpg', { type: 'image/jpeg', body: withOrientation(stageJpeg, 6) });
    const image = (await event({ image: `${origin}/photos/turned.jpg` })).body.image;
    const folder = 'http://example.test/wp-content/uploads/2025/04/';
    expect(image).toMatchObject({ url: `${folder}turned-rotated.jpg`, width: 300, height: 400, original_image: 'turned.jpg' });
    expect(Object.keys(image.sizes)).toEqual(['medium', 'thumbnail']);
    expect(image.sizes.medium).toMatchObject({ width: 225, height: 300, url: `${folder}turned-225x300.jpg` });
    const file = await t.app.inject({ method: 'GET', url: new URL(image.url).pathname });
    expect(jpeg.decode(file.rawPayload)).toMatchObject({ width: 300, height: 400 });
    expect((await t.app.inject({ method: 'GET', url: '/wp-content/uploads/2025/04/turned.jpg' })).statusCode).toBe(200);
  });

  it('makes one attachment of one source loaded by concurrent requests', async () => {
    const source = `${origin}/concurrent/stage.jpg`;
    served.set('/concurrent/stage.jpg', { type: 'image/jpeg', body: stageJpeg });
    const made = await Promise.all([event({ image: source }), event({ image: source }), event({ image: source })]);
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = new Set(made.map((r) => r.body.image.id));
    expect(ids.size).toBe(1);
    expect(await t.db.selectFrom('media_files').select('post_id').where('source_url', '=', source).execute()).toHaveLength(1);
    // The files of the losing requests are gone: only this attachment's name and its sizes remain.
    const name = path.basename(made[0]!.body.image.url, '.jpg');
    const left = fs.readdirSync(path.join(uploads, '2025', '04')).filter((f) => f.startsWith('stage-') && !/^stage-\d+x\d+\.jpg$/.test(f) && !f.startsWith(`${name}.`) && !f.startsWith(`${name}-`));
    expect(left).toEqual([]);
  });

  it('takes an image URL of any length (a long one is kept by its hash)', async () => {
    const long = `/photos/${'a'.repeat(3500)}.png`;
    served.set(long, { type: 'image/png', body: png(5, 5) });
    const res = await event({ image: `${origin}${long}` });
    expect(res.status).toBe(201);
    expect(res.body.image).toMatchObject({ width: 5, height: 5, url: expect.stringMatching(/\/wp-content\/uploads\/2025\/04\/a{100}\.png$/) });
    expect((await event({ image: `${origin}${long}` })).body.image.id).toBe(res.body.image.id);
  });

  it('upgrades a library loaded before: the first attachment of a source keeps it, copies lose only their source', async () => {
    const source = `${origin}/upgraded.png`;
    served.set('/upgraded.png', { type: 'image/png', body: png(5, 5) });
    await unkeySources(t.db);
    const ids: number[] = [];
    for (const name of ['upgraded', 'upgraded-1']) {
      const id = await insertAttachment(t, `http://example.test/wp-content/uploads/2025/04/${name}.png`);
      await t.db.insertInto('media_files').values({ post_id: id, path: `2025/04/${name}.png`, mime: 'image/png', width: 5, height: 5, filesize: 10, source_url: source } as never).execute();
      ids.push(id);
    }
    await keySources(t.db);
    const rows = await t.db.selectFrom('media_files').select(['post_id', 'source_key', 'sizes']).where('post_id', 'in', ids).orderBy('post_id').execute();
    expect(rows).toEqual([{ post_id: ids[0], source_key: sourceKey(source), sizes: '' }, { post_id: ids[1], source_key: '', sizes: '' }]);
    const before = gets;
    expect((await event({ image: source })).body.image.id).toBe(ids[0]);
    expect(gets).toBe(before);
  });

  it('serves nothing outside the uploads folder', async () => {
    for (const url of ['/wp-content/uploads/../../etc/passwd', '/wp-content/uploads/%2e%2e/%2e%2e/etc/passwd', '/wp-content/uploads/2025/04/none.png', '/wp-content/uploads/2025']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
