/**
 * @module content/media-regenerate
 * Makes an image's copies again from its original file, as WP-CLI's `wp media regenerate` does
 * (`Media_Command::process_regeneration`): for images side-loaded before the library made sizes, and
 * for those whose size files were lost.
 *
 * - In full (`wp_generate_attachment_metadata` on the original, that is `wp_create_image_subsizes`),
 *   every copy is made again, the main copy too: a large JPEG gets its `-scaled` file and a JPEG stored
 *   turned its `-rotated` one, which becomes the attachment's file (and the URL of the posts showing
 *   it), as WordPress switches `_wp_attached_file`. Size files the new sizes no longer name are then
 *   deleted (`remove_old_images`), unless `skipDelete`.
 * - With `onlyMissing` (`wp_update_image_subsizes`) only the sizes the image lacks are made: those its
 *   record does not name, names a different size of, or whose file is gone. The main copy is left
 *   alone and nothing is deleted.
 *
 * The original is never written or deleted. A copy is written under its WordPress name, replacing the
 * image's own file of that name (same name, same size of the same image), but never a file another
 * image of the library keeps there: that copy is left out. Files are replaced by renaming a finished
 * file over them, so the uploads folder never serves half a file.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../app-context.js';
import type { Db } from '../storage/db.js';
import { noteWrite } from '../rest/write-generation.js';
import { planImageFile, unresizable, type RenderedImage, type RenderPick } from './image-sizes.js';
import { renderImageSizesOffThread } from './image-worker.js';
import { imageFacts, sizeUrl, storedSizes, type StoredSize } from './media.js';
import { isPostId } from './posts.js';

const MESSAGES = {
  noEditor: (mime: string) => `no editor available for ${mime}.`,
  interlaced: 'interlaced PNG images are not resized.',
  tooLarge: 'the image is too large to resize.',
  notAnImage: 'Read error while retrieving metadata.',
  takenName: (file: string) => `${file} is the file of another image; that copy was not made.`,
} as const;

export interface RegenerateOptions {
  /** Make only the sizes the image lacks (WP-CLI's `--only-missing`, which implies `--skip-delete`). */
  onlyMissing: boolean;
  /** Keep size files the new sizes no longer name (WP-CLI's `--skip-delete`). */
  skipDelete: boolean;
}

/** What became of one image. `notes` are warnings about copies left out. */
export type RegenerateOutcome =
  | { status: 'regenerated'; made: string[]; notes: string[] }
  | { status: 'unchanged' }
  | { status: 'skipped'; reason: string }
  | { status: 'missing' }
  | { status: 'failed'; reason: string };

/** An image of the library: its attachment ID and title. */
export interface LibraryImage {
  id: number;
  title: string;
}

/**
 * The library's images, newest first (WP-CLI's query: attachments of an image type in any status but
 * trash, by date): all of them, or those among `ids`.
 */
export async function libraryImages(db: Db, ids?: readonly number[]): Promise<LibraryImage[]> {
  const query = db
    .selectFrom('posts as p')
    .innerJoin('media_files as m', 'm.post_id', 'p.id')
    .select(['p.id', 'p.title', 'p.date'])
    .where('p.type', '=', 'attachment')
    .where('p.status', '<>', 'trash');
  let rows: { id: number; title: string; date: string }[] = [];
  if (ids === undefined) rows = await query.execute();
  else {
    const wanted = [...new Set(ids.filter(isPostId))];
    for (let i = 0; i < wanted.length; i += 500) rows.push(...(await query.where('p.id', 'in', wanted.slice(i, i + 500)).execute()));
  }
  return rows
    .map((r) => ({ id: Number(r.id), title: r.title, date: String(r.date) }))
    .sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1))
    .map(({ id, title }) => ({ id, title }));
}

/** The names of the files the library's other images keep in `folder` (their files, originals and sizes). */
async function filesOfOtherImages(db: Db, folder: string, id: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('media_files')
    .select(['path', 'original_file', 'sizes'])
    .where('path', 'like', `${folder}/%`)
    .where('post_id', '<>', id)
    .execute();
  const names = new Set<string>();
  for (const r of rows) {
    if (path.posix.dirname(r.path) !== folder) continue;
    names.add(path.posix.basename(r.path));
    if (r.original_file) names.add(r.original_file);
    for (const s of storedSizes(r.sizes)) names.add(s.file);
  }
  return names;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** A copy to put in the image's folder under `name`. */
interface CopyFile {
  name: string;
  bytes: Uint8Array;
}

/** Writes `file` whole beside it, then renames it over it: readers see the old file or the new one. */
async function replaceFile(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temporary, bytes, { flag: 'wx' });
    await fs.rename(temporary, file);
  } finally {
    await fs.rm(temporary, { force: true });
  }
}

/**
 * Puts `copies` into `dir`: a name the image owns is replaced, a free name created, and a name that
 * turns out to be taken is replaced only when no other image keeps a file of that name (a file left by
 * an interrupted run). Returns the names written, those newly created (to remove if the record cannot
 * be updated) and those left out.
 */
async function placeCopies(
  ctx: AppContext,
  dir: string,
  folder: string,
  id: number,
  owned: ReadonlySet<string>,
  copies: readonly CopyFile[],
): Promise<{ written: Set<string>; created: string[]; refused: string[] }> {
  const others = await filesOfOtherImages(ctx.db, folder, id);
  const written = new Set<string>();
  const created: string[] = [];
  const refused: string[] = [];
  try {
    for (const copy of copies) {
      if (written.has(copy.name)) continue;
      const target = path.join(dir, copy.name);
      if (owned.has(copy.name)) await replaceFile(target, copy.bytes);
      else if (others.has(copy.name)) {
        refused.push(copy.name);
        continue;
      } else {
        try {
          // Created only while the name is free: a side-load may be writing it this moment.
          await fs.writeFile(target, copy.bytes, { flag: 'wx' });
          created.push(copy.name);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          if ((await filesOfOtherImages(ctx.db, folder, id)).has(copy.name)) {
            refused.push(copy.name);
            continue;
          }
          await replaceFile(target, copy.bytes);
        }
      }
      written.add(copy.name);
    }
  } catch (e) {
    await Promise.all(created.map((name) => fs.rm(path.join(dir, name), { force: true })));
    throw e;
  }
  return { written, created, refused };
}

/** The copies of `pick` (all when absent); none without rendering when the plan has none. */
async function render(mime: string, bytes: Buffer, width: number, height: number, pick?: RenderPick): Promise<RenderedImage> {
  const { plan } = planImageFile(mime, bytes, width, height);
  const main = plan.main !== undefined && (!pick || pick.main);
  const sizes = pick ? plan.sizes.some((s) => pick.sizes.includes(s.name)) : plan.sizes.length > 0;
  return main || sizes ? renderImageSizesOffThread(mime, bytes, width, height, pick) : { sizes: [] };
}

/** Makes the copies of the library image `id` again (see the module's comment). */
export async function regenerateImage(ctx: AppContext, id: number, options: RegenerateOptions): Promise<RegenerateOutcome> {
  const row = await ctx.db
    .selectFrom('media_files as m')
    .innerJoin('posts as p', 'p.id', 'm.post_id')
    .select(['m.path', 'm.sizes', 'm.original_file', 'p.image_url'])
    .where('m.post_id', '=', id)
    .executeTakeFirst();
  if (!row) return { status: 'missing' };
  const folder = path.posix.dirname(row.path);
  const dir = path.join(ctx.config.uploadsDir, folder);
  const mainName = path.posix.basename(row.path);
  // WP-CLI works from the original (`wp_get_original_image_path`), not from a scaled copy of it.
  const originalName = row.original_file || mainName;
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path.join(dir, originalName));
  } catch (e) {
    if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) return { status: 'missing' };
    return { status: 'failed', reason: e instanceof Error ? e.message : String(e) };
  }
  const facts = imageFacts(bytes);
  if (!facts) return { status: 'failed', reason: MESSAGES.notAnImage };
  const why = unresizable(facts.mime, bytes, facts.width, facts.height);
  if (why) return { status: 'skipped', reason: why === 'type' ? MESSAGES.noEditor(facts.mime) : why === 'interlaced' ? MESSAGES.interlaced : MESSAGES.tooLarge };

  const ext = path.posix.extname(originalName);
  const base = path.posix.basename(originalName, ext);
  const sizeFile = (s: { width: number; height: number }) => `${base}-${s.width}x${s.height}${ext}`;
  const stored = storedSizes(row.sizes);
  const owned = new Set([mainName, ...stored.map((s) => s.file)]);

  // ---- only the missing sizes -------------------------------------------------------------------
  if (options.onlyMissing) {
    const { plan } = planImageFile(facts.mime, bytes, facts.width, facts.height);
    const have = new Map(stored.map((s) => [s.name, s]));
    const lacking: string[] = [];
    for (const p of plan.sizes) {
      const s = have.get(p.name);
      // CASE: WP-CLI, finding a size's file gone but its record intact, makes every copy again
      // (main copy included); only the lacking ones are made here, as the option's name says.
      if (!s || s.width !== p.width || s.height !== p.height || !(await exists(path.join(dir, s.file)))) lacking.push(p.name);
    }
    if (lacking.length === 0) return { status: 'unchanged' };
    let copies: RenderedImage;
    try {
      copies = await render(facts.mime, bytes, facts.width, facts.height, { sizes: lacking, main: false });
    } catch (e) {
      return { status: 'failed', reason: e instanceof Error ? e.message : String(e) };
    }
    const placed = await placeCopies(ctx, dir, folder, id, owned, copies.sizes.map((s) => ({ name: sizeFile(s), bytes: s.bytes })));
    const made = copies.sizes.filter((s) => placed.written.has(sizeFile(s)));
    const sizes = [...stored];
    for (const s of made) {
      const entry: StoredSize = { name: s.name, file: sizeFile(s), width: s.width, height: s.height, filesize: s.bytes.length };
      const at = sizes.findIndex((x) => x.name === s.name);
      if (at >= 0) sizes[at] = entry;
      else sizes.push(entry);
    }
    try {
      await ctx.db.updateTable('media_files').set({ sizes: sizes.length > 0 ? JSON.stringify(sizes) : '' }).where('post_id', '=', id).execute();
    } catch (e) {
      await Promise.all(placed.created.map((name) => fs.rm(path.join(dir, name), { force: true })));
      throw e;
    }
    noteWrite();
    return { status: 'regenerated', made: made.map((s) => s.name), notes: placed.refused.map(MESSAGES.takenName) };
  }

  // ---- every copy ---------------------------------------------------------------------------------
  let copies: RenderedImage;
  try {
    copies = await render(facts.mime, bytes, facts.width, facts.height);
  } catch (e) {
    return { status: 'failed', reason: e instanceof Error ? e.message : String(e) };
  }
  const main = copies.main ? { name: `${base}-${copies.main.suffix}${ext}`, width: copies.main.width, height: copies.main.height, bytes: copies.main.bytes } : undefined;
  const placed = await placeCopies(ctx, dir, folder, id, owned, [
    ...(main ? [{ name: main.name, bytes: main.bytes }] : []),
    ...copies.sizes.map((s) => ({ name: sizeFile(s), bytes: s.bytes })),
  ]);
  if (main && !placed.written.has(main.name)) {
    await Promise.all(placed.created.map((name) => fs.rm(path.join(dir, name), { force: true })));
    return { status: 'failed', reason: MESSAGES.takenName(main.name) };
  }
  const made = copies.sizes.filter((s) => placed.written.has(sizeFile(s)));
  const sizes: StoredSize[] = made.map((s) => ({ name: s.name, file: sizeFile(s), width: s.width, height: s.height, filesize: s.bytes.length }));
  const file = main
    ? { name: main.name, width: main.width, height: main.height, filesize: main.bytes.length }
    : { name: originalName, width: facts.width, height: facts.height, filesize: bytes.length };
  const newPath = `${folder}/${file.name}`;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('media_files')
        .set({ path: newPath, mime: facts.mime, width: file.width, height: file.height, filesize: file.filesize, sizes: sizes.length > 0 ? JSON.stringify(sizes) : '', original_file: main ? originalName : '' })
        .where('post_id', '=', id)
        .execute();
      // The attachment's file changed (an image loaded before scaled copies were made gets one): the
      // attachment and every post showing it name the new file, as WordPress derives them from it.
      if (newPath !== row.path && row.image_url !== '') {
        await trx.updateTable('posts').set({ image_url: sizeUrl(row.image_url, { file: file.name }) }).where('image_url', '=', row.image_url).execute();
      }
    });
  } catch (e) {
    await Promise.all(placed.created.map((name) => fs.rm(path.join(dir, name), { force: true })));
    throw e;
  }
  noteWrite();
  if (!options.skipDelete) {
    const keep = new Set([originalName, file.name, ...sizes.map((s) => s.file)]);
    const others = await filesOfOtherImages(ctx.db, folder, id);
    for (const old of stored) {
      if (!keep.has(old.file) && !others.has(old.file)) await fs.rm(path.join(dir, old.file), { force: true });
    }
  }
  return { status: 'regenerated', made: made.map((s) => s.name), notes: placed.refused.map(MESSAGES.takenName) };
}
