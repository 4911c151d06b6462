/**
 * @module content/media
 * The site's media library, as far as the API needs one: images side-loaded from a URL (the original's
 * `media_sideload_image`, which runs when an event, venue or organizer is given an image URL). The file
 * is kept under `uploadsDir` in `YYYY/MM/` (served at `/wp-content/uploads/`), beside the smaller
 * copies WordPress makes of it (`content/image-sizes.ts`, rendered on a worker thread); the image is
 * an `attachment` post whose `image_url` is the file's URL, and `media_files` holds the file's facts,
 * its copies and the URL it came from, so the same source is loaded once.
 *
 * Remote URLs are fetched with the SSRF policy of `remote/http.ts`; only JPEG, PNG, GIF and WebP files
 * are taken, recognised by their bytes (not by the name or the server's content type).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../app-context.js';
import type { Db } from '../storage/db.js';
import { RemoteRequestError, safeHttpGet } from '../remote/http.js';
import { planImageFile, type RenderedImage } from './image-sizes.js';
import { renderImageSizesOffThread } from './image-worker.js';
import { postDatePair, siteTimeZone, uniquePostSlug, withSlugRetry } from './posts.js';

/** The image types taken, by MIME type, with their file extension. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = Object.freeze({ 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' });

/** Largest image side-loaded (the original's default upload limit is of this order). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export interface ImageFacts {
  mime: string;
  width: number;
  height: number;
}

/** One smaller copy of an image, as `media_files.sizes` keeps it (the file is beside the image's). */
export interface StoredSize {
  name: string;
  file: string;
  width: number;
  height: number;
  filesize: number;
}

/** What an image object shows of its attachment's file. */
export interface MediaFacts {
  mime: string;
  width: number;
  height: number;
  filesize: number;
  sizes: StoredSize[];
  /** The original's file name when the attachment's file is a copy of it (scaled down, or turned upright); '' otherwise. */
  originalFile: string;
}

/** The key `media_files.source_key` holds for a source URL. */
export function sourceKey(url: string): string {
  return crypto.createHash('sha256').update(url).digest('hex');
}

/** The sizes `media_files.sizes` holds (none for '' or anything unreadable). */
export function storedSizes(json: string): StoredSize[] {
  if (!json) return [];
  try {
    const sizes: unknown = JSON.parse(json);
    return Array.isArray(sizes) ? (sizes as StoredSize[]) : [];
  } catch {
    return [];
  }
}

const FACT_COLUMNS = ['post_id', 'mime', 'width', 'height', 'filesize', 'sizes', 'original_file'] as const;

function factsOfRow(r: { mime: string; width: number; height: number; filesize: number; sizes: string; original_file: string }): MediaFacts {
  return { mime: r.mime, width: Number(r.width), height: Number(r.height), filesize: Number(r.filesize), sizes: storedSizes(r.sizes), originalFile: r.original_file };
}

/** The file facts of the given attachments that are in the library (one query; none for no IDs). */
export async function mediaFactsOf(db: Db, ids: Iterable<number>): Promise<Map<number, MediaFacts>> {
  const wanted = [...new Set([...ids].filter((id) => id > 0))];
  const out = new Map<number, MediaFacts>();
  if (wanted.length === 0) return out;
  const rows = await db.selectFrom('media_files').select(FACT_COLUMNS).where('post_id', 'in', wanted).execute();
  for (const r of rows) out.set(Number(r.post_id), factsOfRow(r));
  return out;
}

/** Where the uploads folder is served, under the home URL. */
const UPLOADS_URL_PATH = '/wp-content/uploads/';

/** The file facts of the library's image whose file URL is `url` (a post's `image_url`), if any. */
export async function mediaFactsByUrl(db: Db, home: string, url: string): Promise<MediaFacts | undefined> {
  const prefix = `${home}${UPLOADS_URL_PATH}`;
  if (!url.startsWith(prefix)) return undefined;
  // File names are kept URL-safe, so the rest of the URL is the file's path under the folder.
  const row = await db.selectFrom('media_files').select(FACT_COLUMNS).where('path', '=', url.slice(prefix.length)).executeTakeFirst();
  return row ? factsOfRow(row) : undefined;
}

/** The URL of one of an image's sizes: its file beside the image's (`imageUrl` without query or fragment). */
export function sizeUrl(imageUrl: string, size: Pick<StoredSize, 'file'>): string {
  return `${imageUrl.slice(0, imageUrl.lastIndexOf('/') + 1)}${size.file}`;
}

const MAX_SIDE = 2 ** 31 - 1;

/** JPEG start-of-frame markers (baseline, progressive, …), which carry the image size. */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    if (JPEG_SOF.has(marker)) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return undefined;
}

function webpSize(b: Buffer): { width: number; height: number } | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** The type and size of an image from its bytes, or undefined when it is none of {@link IMAGE_TYPES}. */
export function imageFacts(b: Buffer): ImageFacts | undefined {
  let size: { width: number; height: number } | undefined;
  let mime = '';
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') {
    mime = 'image/png';
    size = { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  } else if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) {
    mime = 'image/gif';
    size = { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  } else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    mime = 'image/jpeg';
    size = jpegSize(b);
  } else if (b.length >= 16 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    mime = 'image/webp';
    size = webpSize(b);
  }
  // PNG allows sides up to 2³¹−1 (its header field is unsigned): larger claims are no image.
  if (!size || size.width <= 0 || size.height <= 0 || size.width > MAX_SIDE || size.height > MAX_SIDE) return undefined;
  return { mime, ...size };
}

const fetchOptions = (ctx: AppContext) => ({ allowPrivateNetwork: ctx.config.environment === 'local', timeoutMs: 10_000, maxBytes: MAX_IMAGE_BYTES });

/**
 * Whether `url` may be side-loaded, as the original's argument check asks: it answers `HEAD` with 200
 * and an image type of {@link IMAGE_TYPES}.
 */
export async function isRemoteImage(ctx: AppContext, url: string): Promise<boolean> {
  try {
    const res = await safeHttpGet(url, { ...fetchOptions(ctx), method: 'HEAD' });
    const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    return res.status === 200 && type in IMAGE_TYPES;
  } catch (e) {
    if (e instanceof RemoteRequestError) return false;
    throw e;
  }
}

/** The file name WordPress would keep (`sanitize_file_name`, ASCII only here), without its extension. */
function baseName(url: URL): string {
  let name = '';
  try {
    name = decodeURIComponent(path.posix.basename(url.pathname));
  } catch {
    name = path.posix.basename(url.pathname);
  }
  name = name.replace(/\.[^.]*$/, '');
  const clean = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-._]+|[-._]+$/g, '').slice(0, 100);
  return clean || 'image';
}

/** A file to write beside the others of one image: `name` + `suffix` + `.ext`. */
interface ImageFile {
  suffix: string;
  bytes: Uint8Array;
}

/**
 * Writes an image's files into `dir` under the first free name (`name`, then `name-1`, …), all or
 * none; returns the name used. A copy whose suffix repeats another's is the same file.
 */
async function writeUnique(dir: string, name: string, ext: string, files: readonly ImageFile[]): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const bySuffix = new Map(files.map((f) => [f.suffix, f.bytes]));
  for (let n = 0; ; n++) {
    const base = `${name}${n === 0 ? '' : `-${n}`}`;
    const written: string[] = [];
    try {
      for (const [suffix, bytes] of bySuffix) {
        const file = path.join(dir, `${base}${suffix}.${ext}`);
        await fs.writeFile(file, bytes, { flag: 'wx' });
        written.push(file);
      }
      return base;
    } catch (e) {
      await Promise.all(written.map((file) => fs.rm(file, { force: true })));
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** The attachment already made from `url`, if any. */
async function attachmentFrom(ctx: AppContext, url: string): Promise<{ id: number; url: string } | undefined> {
  const row = await ctx.db
    .selectFrom('media_files as m')
    .innerJoin('posts as p', 'p.id', 'm.post_id')
    .select(['p.id', 'p.image_url'])
    .where('m.source_key', '=', sourceKey(url))
    .executeTakeFirst();
  return row ? { id: Number(row.id), url: row.image_url } : undefined;
}

/** True for the unique-source violation of `media_files` (either engine). */
function isSourceConflict(error: unknown): boolean {
  const e = error as { message?: string; code?: string; constraint?: string } | undefined;
  if (e?.code === '23505') return e.constraint === 'media_files_source_key' || /media_files_source_key/.test(e.message ?? '');
  return /UNIQUE constraint failed: media_files\.source_key/.test(e?.message ?? '');
}

/** The copies of an image (none when it gets none or they cannot be made: the image is kept as it is). */
async function imageCopies(ctx: AppContext, bytes: Buffer, facts: ImageFacts): Promise<RenderedImage> {
  const { plan } = planImageFile(facts.mime, bytes, facts.width, facts.height);
  if (!plan.main && plan.sizes.length === 0) return { sizes: [] };
  try {
    return await renderImageSizesOffThread(facts.mime, bytes, facts.width, facts.height);
  } catch (e) {
    ctx.log.warn({ reason: e instanceof Error ? e.message : String(e), mime: facts.mime }, 'media: no smaller sizes made of the image');
    return { sizes: [] };
  }
}

/**
 * Loads the image at `url` into the media library (or finds the one loaded from it before) and returns
 * its attachment; undefined when it cannot be loaded or is not an image, as the original then saves
 * the post without one. Runs outside any transaction: it waits on the network and the image worker.
 */
export async function sideloadImage(ctx: AppContext, url: string, author: number): Promise<{ id: number; url: string } | undefined> {
  const source = url.trim();
  const known = await attachmentFrom(ctx, source);
  if (known) return known;
  let bytes: Buffer;
  try {
    const res = await safeHttpGet(source, fetchOptions(ctx));
    if (res.status !== 200) return undefined;
    bytes = res.bytes;
  } catch (e) {
    if (e instanceof RemoteRequestError) {
      ctx.log.warn({ reason: e.reason }, 'media: the image could not be loaded');
      return undefined;
    }
    throw e;
  }
  const facts = imageFacts(bytes);
  if (!facts) return undefined;
  const copies = await imageCopies(ctx, bytes, facts);

  const now = postDatePair(ctx.now(), await siteTimeZone(ctx.options));
  const folder = `${now.local.slice(0, 4)}/${now.local.slice(5, 7)}`;
  const ext = IMAGE_TYPES[facts.mime]!;
  const dir = path.join(ctx.config.uploadsDir, folder);
  // A large JPEG's attachment is its scaled-down copy (`name-scaled.jpg`), a JPEG stored turned its
  // upright copy (`name-rotated.jpg`); the original stays beside it.
  const main = copies.main;
  const files: ImageFile[] = [
    { suffix: '', bytes },
    ...(main ? [{ suffix: `-${main.suffix}`, bytes: main.bytes }] : []),
    ...copies.sizes.map((s) => ({ suffix: `-${s.width}x${s.height}`, bytes: s.bytes })),
  ];
  const base = await writeUnique(dir, baseName(new URL(source)), ext, files);
  const file = main ? { name: `${base}-${main.suffix}.${ext}`, width: main.width, height: main.height, filesize: main.bytes.length } : { name: `${base}.${ext}`, width: facts.width, height: facts.height, filesize: bytes.length };
  const sizes: StoredSize[] = copies.sizes.map((s) => ({ name: s.name, file: `${base}-${s.width}x${s.height}.${ext}`, width: s.width, height: s.height, filesize: s.bytes.length }));
  const fileUrl = `${ctx.urls.home}${UPLOADS_URL_PATH}${folder}/${file.name}`;
  try {
    return await withSlugRetry(() => ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('posts')
        .values({
          type: 'attachment', status: 'inherit', slug: await uniquePostSlug(trx, 'attachment', base, undefined, 'image'), title: base, content: '', excerpt: '',
          author, parent: 0, password: '', menu_order: 0, date: now.local, date_gmt: now.gmt, modified: now.local, modified_gmt: now.gmt, image_url: fileUrl,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await trx
        .insertInto('media_files')
        .values({
          post_id: id, path: `${folder}/${file.name}`, mime: facts.mime, width: file.width, height: file.height, filesize: file.filesize,
          source_url: source, source_key: sourceKey(source), sizes: sizes.length > 0 ? JSON.stringify(sizes) : '', original_file: main ? `${base}.${ext}` : '',
        })
        .execute();
      return { id, url: fileUrl };
    }));
  } catch (e) {
    await Promise.all(files.map((f) => fs.rm(path.join(dir, `${base}${f.suffix}.${ext}`), { force: true })));
    // Loaded by a concurrent request meanwhile: that attachment is this URL's.
    if (isSourceConflict(e)) {
      const made = await attachmentFrom(ctx, source);
      if (made) return made;
    }
    throw e;
  }
}
