/**
 * Images of imported events: as the original's importer (`import_event_image`, `import_venue_image`,
 * `import_organizer_image` through `Tribe__Image__Uploader`, and its UrlTest), the image of an
 * imported event, venue or organizer is side-loaded into the media library; an image loaded from the
 * same URL before (or one of this site's own files) is reused, not loaded again; one that cannot be
 * loaded leaves the event without it and is tried again by the next import. A local image server
 * stands in for the remote host and counts the requests.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceKey } from '../../content/media.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { runImportCommand } from './cli.js';
import type { ImportedItem } from './fields.js';
import { applyItems, siteImporter } from './import.service.js';
import { importJobs, RUN_RECORD_JOB } from './jobs.js';
import { getRecord, insertRecord, newBatchHash } from './records.repo.js';
import { runRecord } from './runs.js';
import { fromServiceItem } from './service-items.js';

const NS = '/eventsuite/events/v1';
const IMPORT_NS = '/eventsuite/event-aggregator/v1';
const NOW = new Date('2026-03-10T12:00:00Z');

/** A real 400 × 300 JPEG: WordPress makes a medium and a thumbnail copy of it. */
const PHOTO = (() => {
  const data = Buffer.alloc(400 * 300 * 4);
  for (let i = 0; i < 400 * 300; i++) data.set([(i % 400) * 0.6, (i / 400) * 0.8, 90, 255], i * 4);
  return Buffer.from(jpeg.encode({ width: 400, height: 300, data }, 90).data);
})();

function serviceEvent(n: number, extra: Record<string, unknown> = {}) {
  return {
    global_id: `svc.example?uid=img-${n}`, title: `Harbour talk ${n}`, start_date: '2026-06-01', start_hour: '7', start_minute: '00', start_meridian: 'PM',
    end_date: '2026-06-01', end_hour: '9', end_minute: '00', end_meridian: 'PM', timezone: 'UTC', ...extra,
  };
}

function item(raw: unknown): ImportedItem {
  const parsed = fromServiceItem(raw);
  if (!('fields' in parsed)) throw new Error(parsed.reason);
  return parsed;
}

describe.each(DIALECTS)('images of imported events on %s', (engine) => {
  let t: TestApp;
  let server: http.Server;
  let origin = '';
  let uploads = '';
  let dir = '';
  const served = new Map<string, Buffer>();
  const requests: string[] = [];
  /** Requests the image server had for `urlPath`, any method. */
  const hits = (urlPath: string) => requests.filter((r) => r === urlPath).length;

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'import-images-uploads-'));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-images-'));
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      const body = served.get(req.url ?? '');
      if (!body) return res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestApp(engine, { environment: 'local', uploadsDir: uploads }, { now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(uploads, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const remoteRecord = async () => (await insertRecord(t.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: newBatchHash() }, NOW)).id;
  const eventImage = async (id: number) => (await t.request('GET', `${NS}/events/${id}`, { as: t.admin })).body.image;
  const sourceRows = async (url: string) => t.db.selectFrom('media_files').select('post_id').where('source_key', '=', sourceKey(url)).execute();

  it('loads the image of an event an import job creates: an attachment by the importer, with sizes whose files open', async () => {
    served.set('/photos/harbour.jpg', PHOTO);
    const file = path.join(dir, 'harbour.ics');
    fs.writeFileSync(file, [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:harbour-1@example.org', 'SUMMARY:Harbour fair', 'DTSTART:20260601T100000Z', 'DTEND:20260601T120000Z',
      `ATTACH;FMTTYPE=image/jpeg:${origin}/photos/harbour.jpg`, 'END:VEVENT', 'END:VCALENDAR',
    ].join('\r\n'));
    const record = await insertRecord(t.db, { origin: 'ics', source: file, frequency: 'on_demand', status: 'draft' }, NOW);
    await importJobs[RUN_RECORD_JOB](t.ctx, { import_id: record.id });

    const stored = (await getRecord(t.db, record.id))!;
    expect(stored.status).toBe('success');
    const [eventId] = stored.activity.tribe_events.created;
    const image = await eventImage(eventId!);
    const folder = 'http://example.test/wp-content/uploads/2026/03/';
    expect(image).toMatchObject({ url: `${folder}harbour.jpg`, id: expect.any(Number), extension: 'jpg', width: 400, height: 300 });
    expect(Object.keys(image.sizes)).toEqual(['medium', 'thumbnail']);
    expect(image.sizes.medium).toMatchObject({ width: 300, height: 225, url: `${folder}harbour-300x225.jpg` });
    for (const url of [image.url, ...Object.values<{ url: string }>(image.sizes).map((s) => s.url)]) {
      const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('image/jpeg');
    }
    // The import's author (the site importing: its first administrator) is the attachment's.
    const attachment = await t.db.selectFrom('posts').select(['type', 'author']).where('id', '=', image.id).executeTakeFirstOrThrow();
    expect(attachment).toEqual({ type: 'attachment', author: t.admin.id });
    expect(stored.activity.attachment.created).toEqual([image.id]);
    expect(hits('/photos/harbour.jpg')).toBe(1);

    // Running the import again finds the item unchanged: the image is not fetched again.
    const again = await runRecord(t.ctx, stored);
    expect(again).toMatchObject({ status: 'success', created: 0, updated: 0, unchanged: 1 });
    expect(hits('/photos/harbour.jpg')).toBe(1);
    expect((await eventImage(eventId!)).id).toBe(image.id);
  });

  it('gives events with the same image URL one attachment, and uses this site’s own file as it is', async () => {
    served.set('/shared/poster.jpg', PHOTO);
    const url = `${origin}/shared/poster.jpg`;
    const record = await remoteRecord();
    const first = await applyItems(t.ctx, record, [item(serviceEvent(10, { image: url })), item(serviceEvent(11, { image: url }))]);
    const later = await applyItems(t.ctx, record, [item(serviceEvent(12, { image: url }))]);
    const ids = [...first.activity.tribe_events.created, ...later.activity.tribe_events.created];
    expect(ids).toHaveLength(3);
    const images = await Promise.all(ids.map(eventImage));
    expect(images[0].id).toEqual(expect.any(Number));
    for (const image of images) expect(image).toEqual(images[0]);
    expect(hits('/shared/poster.jpg')).toBe(1);
    expect(await sourceRows(url)).toEqual([{ post_id: images[0].id }]);
    // Reported once per batch, as the original logs the attachment it sets.
    expect(first.activity.attachment.created).toEqual([images[0].id]);

    // The original's UrlTest: an item naming an attachment's URL of this site gets that attachment.
    const attachments = async () => Number((await t.db.selectFrom('posts').select(t.db.fn.countAll().as('n')).where('type', '=', 'attachment').executeTakeFirstOrThrow()).n);
    const before = await attachments();
    const own = await applyItems(t.ctx, record, [item(serviceEvent(13, { image: images[0].url }))]);
    expect(await eventImage(own.activity.tribe_events.created[0]!)).toEqual(images[0]);
    expect(await attachments()).toBe(before);
  });

  it('reuses the attachment of an image URL an updated item names again', async () => {
    served.set('/photos/a.jpg', PHOTO);
    served.set('/photos/b.jpg', PHOTO);
    const record = await remoteRecord();
    const withImage = (name: string) => item(serviceEvent(20, { image: `${origin}/photos/${name}` }));
    const id = (await applyItems(t.ctx, record, [withImage('a.jpg')])).activity.tribe_events.created[0]!;
    const a = await eventImage(id);
    const toB = await applyItems(t.ctx, record, [withImage('b.jpg')]);
    expect(toB).toMatchObject({ updated: 1 });
    const b = await eventImage(id);
    expect(b.id).not.toBe(a.id);
    expect(toB.activity.attachment.created).toEqual([b.id]);
    const backToA = await applyItems(t.ctx, record, [withImage('a.jpg')]);
    expect(backToA).toMatchObject({ updated: 1 });
    expect(await eventImage(id)).toEqual(a);
    expect([hits('/photos/a.jpg'), hits('/photos/b.jpg')]).toEqual([1, 1]);
  });

  it('imports an event whose image cannot be loaded without it; the next import tries again', async () => {
    const url = `${origin}/photos/late.jpg`;
    const csv = path.join(dir, 'late.csv');
    fs.writeFileSync(csv, `Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Featured Image\nLate poster,2026-07-01,10:00 AM,2026-07-01,11:00 AM,${url}\n`);
    const outputs: Record<string, unknown>[] = [];
    const io = { ctx: t.ctx, args: ['csv', csv], values: {}, print: (data: Record<string, unknown>) => outputs.push(data), progress: () => undefined };
    const eventId = async () => Number((await t.db.selectFrom('posts').select('id').where('title', '=', 'Late poster').executeTakeFirstOrThrow()).id);

    expect(await runImportCommand(io)).toBe(0);
    expect(outputs.at(-1)).toMatchObject({ created: 1, skipped: [] });
    expect(hits('/photos/late.jpg')).toBe(1);
    expect(await eventImage(await eventId())).toBe(false);
    expect(await sourceRows(url)).toEqual([]);

    // Still missing: tried again, the event stays as it is.
    await runImportCommand(io);
    expect(outputs.at(-1)).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(hits('/photos/late.jpg')).toBe(2);

    served.set('/photos/late.jpg', PHOTO);
    await runImportCommand(io);
    expect(outputs.at(-1)).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const image = await eventImage(await eventId());
    expect(image).toMatchObject({ id: (await sourceRows(url))[0]!.post_id, url: 'http://example.test/wp-content/uploads/2026/03/late.jpg' });

    await runImportCommand(io);
    expect(outputs.at(-1)).toMatchObject({ unchanged: 1 });
    expect(hits('/photos/late.jpg')).toBe(3);
  });

  it('loads the images of venues and organizers from the service’s batch, also for ones that exist already', async () => {
    served.set('/venues/pier.jpg', PHOTO);
    served.set('/orgs/trust.jpg', PHOTO);
    const existing = await t.request('POST', `${NS}/organizers`, { as: t.admin, json: { organizer: 'Harbour Trust' } });
    expect(existing.status).toBe(201);
    // Linked objects leave empty fields out (the original's array_filter).
    expect(existing.body).not.toHaveProperty('image');
    const hash = newBatchHash();
    const record = await insertRecord(t.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: hash }, NOW);
    const event = serviceEvent(30, {
      venue: { venue: 'Pier Hall', city: 'Hull', image: `${origin}/venues/pier.jpg` },
      organizer: [{ organizer: 'harbour trust', image: `${origin}/orgs/trust.jpg` }, { organizer: 'Plain Org' }],
    });
    const status = { data: { total: 2, done: 1 }, batch: { total: 2, done: 0 } };
    const res = await t.request('POST', `${IMPORT_NS}/import/${record.id}/batch`, { json: { batch_hash: hash, status, percentage_complete: 50, events: [event] } });
    expect(res.status).toBe(200);

    const ev = (await t.request('GET', `${NS}/events/${res.body.activity.tribe_events.created[0]}`, { as: t.admin })).body;
    expect(ev.venue.image).toMatchObject({ id: expect.any(Number), url: 'http://example.test/wp-content/uploads/2026/03/pier.jpg', width: 400, height: 300 });
    expect(Object.keys(ev.venue.image.sizes)).toEqual(['medium', 'thumbnail']);
    const [trust, plain] = ev.organizer;
    expect(trust.id).toBe(existing.body.id);
    expect(trust.image).toMatchObject({ id: expect.any(Number), url: 'http://example.test/wp-content/uploads/2026/03/trust.jpg' });
    expect(plain).not.toHaveProperty('image');
    expect(res.body.activity.attachment.created).toEqual([ev.venue.image.id, trust.image.id]);
    const author = await t.db.selectFrom('posts').select('author').where('id', 'in', [ev.venue.image.id, trust.image.id]).execute();
    expect(author).toEqual([{ author: t.admin.id }, { author: t.admin.id }]);

    // The same item again: nothing changed, nothing fetched.
    const again = await t.request('POST', `${IMPORT_NS}/import/${record.id}/batch`, {
      json: { batch_hash: res.body.next_batch_hash, status: { data: { total: 2, done: 2 }, batch: { total: 2, done: 1 } }, percentage_complete: 100, events: [event] },
    });
    expect(again.status).toBe(200);
    expect(again.body.activity.tribe_events.skipped).toEqual([ev.id]);
    expect([hits('/venues/pier.jpg'), hits('/orgs/trust.jpg')]).toEqual([1, 1]);
  });

  it('leaves out a linked post’s image that cannot be loaded and tries it again next time', async () => {
    const record = await remoteRecord();
    const withVenueImage = item(serviceEvent(35, { venue: { venue: 'Dock Shed', image: `${origin}/venues/dock.jpg` } }));
    const first = await applyItems(t.ctx, record, [withVenueImage]);
    const id = first.activity.tribe_events.created[0]!;
    const venue = () => t.request('GET', `${NS}/events/${id}`, { as: t.admin }).then((r) => r.body.venue);
    expect(await venue()).not.toHaveProperty('image');
    served.set('/venues/dock.jpg', PHOTO);
    expect(await applyItems(t.ctx, record, [withVenueImage])).toMatchObject({ updated: 1 });
    expect((await venue()).image).toMatchObject({ url: 'http://example.test/wp-content/uploads/2026/03/dock.jpg' });
    expect(await applyItems(t.ctx, record, [withVenueImage])).toMatchObject({ unchanged: 1 });
    expect(hits('/venues/dock.jpg')).toBe(2);
  });

  it('does not load images for an importer who may not upload files: the event is imported without one', async () => {
    served.set('/photos/secret.jpg', PHOTO);
    const importer = await siteImporter(t.ctx);
    const result = await applyItems(t.ctx, await remoteRecord(), [item(serviceEvent(40, { image: `${origin}/photos/secret.jpg` }))], {
      user: { ...importer, can: (cap: string) => cap !== 'upload_files' },
    });
    expect(result.created).toBe(1);
    expect(await eventImage(result.activity.tribe_events.created[0]!)).toBe(false);
    expect(hits('/photos/secret.jpg')).toBe(0);
  });

  it('loads the image of an event imported before images were side-loaded (its image is the remote URL) on the next import', async () => {
    served.set('/photos/old.jpg', PHOTO);
    const url = `${origin}/photos/old.jpg`;
    const record = await remoteRecord();
    const old = item(serviceEvent(50, { image: url }));
    const importer = await siteImporter(t.ctx);
    const id = (await applyItems(t.ctx, record, [old], { user: { ...importer, can: (cap: string) => cap !== 'upload_files' } })).activity.tribe_events.created[0]!;
    // What the importer stored before: the remote URL as the event's image, and as the item's.
    await t.db.updateTable('posts').set({ image_url: url }).where('id', '=', id).execute();
    await t.db.updateTable('import_origin_ids').set({ fields: JSON.stringify(old.fields) }).where('post_id', '=', id).execute();
    expect(await eventImage(id)).toEqual({ url, extension: 'jpg' });

    expect(await applyItems(t.ctx, record, [old])).toMatchObject({ updated: 1 });
    expect(await eventImage(id)).toMatchObject({ id: expect.any(Number), url: 'http://example.test/wp-content/uploads/2026/03/old.jpg' });
    expect(await applyItems(t.ctx, record, [old])).toMatchObject({ unchanged: 1 });
    expect(hits('/photos/old.jpg')).toBe(1);
  });
});
