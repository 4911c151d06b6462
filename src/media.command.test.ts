/**
 * `eventsuite media regenerate`: WP-CLI's output and outcomes (wp-cli/media-command
 * features/media-regenerate.feature; `report_batch_operation_results`): "Found N images to regenerate.",
 * a numbered line per image, "Success: Regenerated N of M images.", an image whose file is gone
 * counted as failed ("Can't find …", "Error: No images regenerated (1 failed).", status 1) without
 * stopping the others, and IDs that name no image reported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withApp } from './cli.js';
import { loadConfig } from './config.js';
import { sideloadImage, storedSizes } from './content/media.js';
import { regenerateSummary, runMediaRegenerate, type RegenerateReporter } from './media.command.js';
import { runCli } from './test-support/cli-run.js';
import { DIALECTS, startTestApp, type TestApp } from './test-support/harness.js';
import { gradientJpeg, serveFiles } from './test-support/images.js';

const NOW = new Date('2025-04-01T12:00:00Z');
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([4, 0, 3, 0, 0, 0, 0]), Buffer.from([0x2c, 0, 0, 0, 0, 4, 0, 3, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b])]);

/** A reporter keeping what would go to stdout and stderr. */
function recorder(): RegenerateReporter & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, line: (text) => out.push(text), warn: (text) => err.push(`Warning: ${text}`) };
}

describe('regenerateSummary (report_batch_operation_results)', () => {
  it('words the summary as WP-CLI does', () => {
    expect(regenerateSummary(3, 3, 0, 0)).toEqual({ ok: true, text: 'Regenerated 3 of 3 images.' });
    expect(regenerateSummary(2, 1, 0, 1)).toEqual({ ok: true, text: 'Regenerated 1 of 2 images (1 skipped).' });
    expect(regenerateSummary(1, 0, 0, 1)).toEqual({ ok: true, text: 'Regenerated 0 of 1 images (1 skipped).' });
    expect(regenerateSummary(1, 0, 1, 0)).toEqual({ ok: false, text: 'No images regenerated (1 failed).' });
    expect(regenerateSummary(3, 1, 1, 1)).toEqual({ ok: false, text: 'Only regenerated 1 of 3 images (1 failed, 1 skipped).' });
  });
});

describe.each(DIALECTS)('media regenerate on %s', (engine) => {
  let t: TestApp;
  let uploads: string;
  const files = new Map<string, Buffer>();
  let server: Awaited<ReturnType<typeof serveFiles>>;

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-media-command-'));
    server = await serveFiles(files);
    t = await startTestApp(engine, { environment: 'local', uploadsDir: uploads }, { now: () => NOW });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  /** Side-loads `body` as `/<dir>/<file>`; answers the attachment ID. */
  async function load(dir: string, file: string, body: Buffer): Promise<number> {
    files.set(`/${dir}/${file}`, body);
    const image = await sideloadImage(t.ctx, `${server.origin}/${dir}/${file}`, t.admin.id);
    return image!.id;
  }
  const record = (id: number) => t.db.selectFrom('media_files').selectAll().where('post_id', '=', id).executeTakeFirstOrThrow();
  const run = async (input: { ids?: number[]; onlyMissing?: boolean; skipDelete?: boolean }) => {
    const report = recorder();
    const { code, data } = await runMediaRegenerate(t.ctx, { onlyMissing: false, skipDelete: false, ...input }, report);
    return { code, data, out: report.out, err: report.err };
  };

  it('regenerates the images named, numbering each, and ends with the summary', async () => {
    const stage = await load('a', 'stage.jpg', gradientJpeg(400, 300));
    const sizes = storedSizes((await record(stage)).sizes);
    for (const s of sizes) fs.rmSync(path.join(uploads, '2025', '04', s.file));
    await t.db.updateTable('media_files').set({ sizes: '' }).where('post_id', '=', stage).execute();
    const poster = await load('a', 'poster.gif', GIF);

    const res = await run({ ids: [stage, poster] });
    // Newest first; both were loaded at the same time, so the later ID comes first.
    expect(res.out).toEqual([
      'Found 2 images to regenerate.',
      `1/2 Skipped thumbnail regeneration for "poster" (ID ${poster}): no editor available for image/gif.`,
      `2/2 Regenerated thumbnails for "stage" (ID ${stage}).`,
    ]);
    expect(res.err).toEqual([]);
    expect(res).toMatchObject({ code: 0, data: { found: 2, regenerated: 1, failed: 0, skipped: 1, summary: 'Regenerated 1 of 2 images (1 skipped).' } });
    expect(storedSizes((await record(stage)).sizes)).toEqual(sizes);
    for (const s of sizes) expect((await t.app.inject({ method: 'GET', url: `/wp-content/uploads/2025/04/${s.file}` })).statusCode).toBe(200);

    const again = await run({ ids: [stage], onlyMissing: true });
    expect(again.out).toEqual(['Found 1 image to regenerate.', `1/1 No thumbnail regeneration needed for "stage" (ID ${stage}).`]);
    expect(again.data.summary).toBe('Regenerated 1 of 1 images.');
  });

  it('counts an image whose file is missing as failed, goes on with the others, and exits with 1', async () => {
    const kept = await load('b', 'kept.jpg', gradientJpeg(400, 300));
    const lost = await load('b', 'lost.jpg', gradientJpeg(400, 300));
    fs.rmSync(path.join(uploads, '2025', '04', 'lost.jpg'));

    const both = await run({ ids: [kept, lost] });
    expect(both.err).toEqual([`Warning: Can't find "lost" (ID ${lost}).`]);
    expect(both.out).toEqual(['Found 2 images to regenerate.', `2/2 Regenerated thumbnails for "kept" (ID ${kept}).`]);
    expect(both).toMatchObject({ code: 1, data: { summary: 'Only regenerated 1 of 2 images (1 failed).' } });

    const alone = await run({ ids: [lost] });
    expect(alone).toMatchObject({ code: 1, data: { summary: 'No images regenerated (1 failed).' } });
  });

  it('reports IDs that name no image of the library; with none left it finds no images', async () => {
    const image = await load('c', 'known.jpg', gradientJpeg(200, 100));
    const event = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Not an image', start_date: '2025-05-01 10:00:00', end_date: '2025-05-01 12:00:00' } });
    const res = await run({ ids: [image, 987654, event.body.id, 3000000000] });
    expect(res.err).toEqual([
      'Warning: No image with ID 987654 in the media library.',
      `Warning: No image with ID ${event.body.id} in the media library.`,
      'Warning: No image with ID 3000000000 in the media library.',
    ]);
    expect(res.out[0]).toBe('Found 1 image to regenerate.');
    expect(res).toMatchObject({ code: 0, data: { found: 1, unknown: [987654, event.body.id, 3000000000] } });

    const none = await run({ ids: [987654] });
    expect(none.err).toEqual(['Warning: No image with ID 987654 in the media library.', 'Warning: No images found.']);
    expect(none).toMatchObject({ code: 0, out: [] });
  });

  it('regenerates every image of the library when no ID is given', async () => {
    const all = await t.db.selectFrom('media_files').select('post_id').execute();
    const res = await run({ onlyMissing: true });
    expect(res.out[0]).toBe(`Found ${all.length} images to regenerate.`);
    expect(res.data.found).toBe(all.length);
  });
});

describe('eventsuite media regenerate (command line)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-media-cli-'));
  const dbFlag = ['--database-url', path.join(dir, 'site.sqlite'), '--base-url', 'http://localhost:8080'];
  let server: Awaited<ReturnType<typeof serveFiles>>;

  beforeAll(async () => {
    server = await serveFiles(new Map([['/stage.jpg', gradientJpeg(400, 300)]]));
    vi.stubEnv('UPLOADS_DIR', path.join(dir, 'uploads'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is listed in the help', async () => {
    expect((await runCli(['--help'])).out).toContain('media regenerate [ID…]');
  });

  it('needs --yes (or IDs) to regenerate every image, and refuses arguments that are no IDs', async () => {
    await expect(runCli(['media', 'regenerate', ...dbFlag])).rejects.toThrow('add --yes to confirm');
    await expect(runCli(['media', 'regenerate', '12', 'abc', ...dbFlag])).rejects.toThrow('attachment IDs are positive whole numbers, not "abc"');
    await expect(runCli(['media', 'regenerate', '0', ...dbFlag])).rejects.toThrow('not "0"');
    await expect(runCli(['media', 'resize', ...dbFlag])).rejects.toThrow('usage: eventsuite media regenerate');
    const empty = await runCli(['media', 'regenerate', '--yes', ...dbFlag]);
    expect(empty).toEqual({ code: 0, out: '', err: 'Warning: No images found.\n' });
  });

  it('prints WP-CLI\'s lines, or the summary as JSON with --json', async () => {
    const config = loadConfig({ DATABASE_URL: path.join(dir, 'site.sqlite'), BASE_URL: 'http://localhost:8080', UPLOADS_DIR: path.join(dir, 'uploads') });
    const id = await withApp(config, async (app) => (await sideloadImage(app.ctx, `${server.origin}/stage.jpg`, 0))!.id);
    const human = await runCli(['media', 'regenerate', '--yes', ...dbFlag]);
    expect(human).toEqual({ code: 0, out: `Found 1 image to regenerate.\n1/1 Regenerated thumbnails for "stage" (ID ${id}).\nSuccess: Regenerated 1 of 1 images.\n`, err: '' });
    const json = await runCli(['media', 'regenerate', String(id), '--only-missing', '--json', ...dbFlag]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({
      found: 1, regenerated: 1, failed: 0, skipped: 0, summary: 'Regenerated 1 of 1 images.',
      images: [{ id, title: 'stage', result: 'unchanged' }], unknown: [],
    });
    const row = await withApp(config, (app) => app.ctx.db.selectFrom('media_files').select('path').where('post_id', '=', id).executeTakeFirstOrThrow());
    fs.rmSync(path.join(dir, 'uploads', row.path));
    const failed = await runCli(['media', 'regenerate', String(id), ...dbFlag]);
    expect(failed).toEqual({ code: 1, out: 'Found 1 image to regenerate.\n', err: `Warning: Can't find "stage" (ID ${id}).\nError: No images regenerated (1 failed).\n` });
  });
});
