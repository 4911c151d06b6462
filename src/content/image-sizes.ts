/**
 * @module content/image-sizes
 * The smaller copies WordPress makes of an uploaded image (`wp_create_image_subsizes`): which sizes
 * an image gets, their pixel sizes and crops as WordPress computes them (`image_resize_dimensions`,
 * `wp_constrain_dimensions`), and the pixels themselves: decoded, resampled by area averaging (what
 * GD's `imagecopyresampled` does) and encoded again. JPEG and PNG files get sizes; GIF and WebP
 * files get none, as on a WordPress whose image editor cannot write them. A JPEG whose EXIF
 * orientation says it is stored turned is turned upright first (`maybe_exif_rotate`), so its copies
 * stand as browsers show the original.
 *
 * Rendering is CPU work of tenths of a second to seconds: it runs on a worker thread
 * (`content/image-worker.ts`), never on the thread that serves requests.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** WordPress's registered sizes, in the order it makes them (`_wp_make_subsizes` puts these first). */
export const IMAGE_SIZES: readonly { name: string; width: number; height: number; crop: boolean }[] = [
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: '1536x1536', width: 1536, height: 1536, crop: false },
  { name: '2048x2048', width: 2048, height: 2048, crop: false },
];

/** Larger JPEGs are replaced by a copy of at most this many pixels a side (`big_image_size_threshold`). */
export const BIG_IMAGE_THRESHOLD = 2560;

/** Images with more pixels, or a longer side, than these get no sizes (decoding them costs too much memory). */
export const MAX_RESIZE_PIXELS = 25_000_000;
export const MAX_RESIZE_SIDE = 16_384;

/** Output rows resampled together: the intermediate rows then stay a small band whatever the image's height. */
const BAND_ROWS = 32;

/** JPEG quality of the copies (`wp_editor_set_quality`'s default). */
const JPEG_QUALITY = 82;

/** The types that get sizes. */
export const RESIZABLE = new Set(['image/jpeg', 'image/png']);

/** The part of the source drawn into the copy, and the copy's size. */
export interface SizePlan {
  width: number;
  height: number;
  cropX: number;
  cropY: number;
  cropWidth: number;
  cropHeight: number;
}

/** `wp_constrain_dimensions`: the size fitting the box (0: no bound), rounded as WordPress rounds. */
export function constrainDimensions(width: number, height: number, maxWidth: number, maxHeight: number): [number, number] {
  if (!maxWidth && !maxHeight) return [width, height];
  let widthRatio = 1;
  let heightRatio = 1;
  const didWidth = maxWidth > 0 && width > maxWidth;
  const didHeight = maxHeight > 0 && height > maxHeight;
  if (didWidth) widthRatio = maxWidth / width;
  if (didHeight) heightRatio = maxHeight / height;
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  const ratio = Math.round(width * larger) > maxWidth || Math.round(height * larger) > maxHeight ? smaller : larger;
  let w = Math.max(1, Math.round(width * ratio));
  let h = Math.max(1, Math.round(height * ratio));
  // A pixel short of the box through rounding is the box (so constraining again changes nothing).
  if (didWidth && w === maxWidth - 1) w = maxWidth;
  if (didHeight && h === maxHeight - 1) h = maxHeight;
  return [w, h];
}

/**
 * `image_resize_dimensions`: the copy of a `width` × `height` image for a size box, cropped around the
 * centre when `crop`; undefined when there is none to make (the copy would be the image itself, within
 * a pixel, or the box is empty).
 */
export function resizeDimensions(width: number, height: number, boxWidth: number, boxHeight: number, crop: boolean): SizePlan | undefined {
  if (width <= 0 || height <= 0 || (boxWidth <= 0 && boxHeight <= 0)) return undefined;
  let plan: SizePlan;
  if (crop) {
    let w = Math.min(boxWidth, width);
    let h = Math.min(boxHeight, height);
    if (!w) w = Math.round(h * (width / height));
    if (!h) h = Math.round(w / (width / height));
    const ratio = Math.max(w / width, h / height);
    const cropWidth = Math.round(w / ratio);
    const cropHeight = Math.round(h / ratio);
    plan = { width: w, height: h, cropX: Math.floor((width - cropWidth) / 2), cropY: Math.floor((height - cropHeight) / 2), cropWidth, cropHeight };
  } else {
    const [w, h] = constrainDimensions(width, height, boxWidth, boxHeight);
    plan = { width: w, height: h, cropX: 0, cropY: 0, cropWidth: width, cropHeight: height };
  }
  if (Math.abs(plan.width - width) <= 1 && Math.abs(plan.height - height) <= 1) return undefined;
  return plan;
}

/**
 * What an image of this type and size gets: a main copy replacing it as the attachment's file (large
 * JPEGs scaled down, `-scaled`; JPEGs stored turned, upright at full size, `-rotated`) and its sizes.
 * `width` and `height` are the upright image's.
 */
export interface ImagePlan {
  main?: SizePlan & { suffix: 'scaled' | 'rotated' };
  sizes: (SizePlan & { name: string })[];
}

export function planImage(mime: string, width: number, height: number, turned = false): ImagePlan {
  if (!RESIZABLE.has(mime) || width * height > MAX_RESIZE_PIXELS || width > MAX_RESIZE_SIDE || height > MAX_RESIZE_SIDE) return { sizes: [] };
  const sizes: ImagePlan['sizes'] = [];
  for (const size of IMAGE_SIZES) {
    const plan = resizeDimensions(width, height, size.width, size.height, size.crop);
    if (plan) sizes.push({ name: size.name, ...plan });
  }
  // PNGs are never scaled: their copies can be larger files than the original (WordPress #48736).
  const big = mime === 'image/jpeg' && (width > BIG_IMAGE_THRESHOLD || height > BIG_IMAGE_THRESHOLD);
  const scaled = big ? resizeDimensions(width, height, BIG_IMAGE_THRESHOLD, BIG_IMAGE_THRESHOLD, false) : undefined;
  if (scaled) return { main: { ...scaled, suffix: 'scaled' }, sizes };
  if (turned) return { main: { width, height, cropX: 0, cropY: 0, cropWidth: width, cropHeight: height, suffix: 'rotated' }, sizes };
  return { sizes };
}

/**
 * The EXIF orientation of a JPEG (1–8; 1 is upright), read from its APP1 segment's first IFD; 1 when
 * it has none or it is unreadable.
 */
export function jpegOrientation(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let i = 2;
  while (i + 4 <= b.length && b[i] === 0xff) {
    const marker = b[i + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // the image data starts: no EXIF before it
    const length = view.getUint16(i + 2);
    const start = i + 4;
    if (marker === 0xe1 && start + 14 <= b.length && String.fromCharCode(...b.subarray(start, start + 6)) === 'Exif\0\0') {
      const tiff = start + 6;
      const little = b[tiff] === 0x49;
      const u16 = (at: number) => (at + 2 <= b.length ? view.getUint16(at, little) : 0);
      const u32 = (at: number) => (at + 4 <= b.length ? view.getUint32(at, little) : 0);
      const ifd = tiff + u32(tiff + 4);
      const entries = u16(ifd);
      for (let e = 0; e < entries; e++) {
        const entry = ifd + 2 + e * 12;
        if (entry + 12 > b.length) break;
        if (u16(entry) === 0x0112) {
          const value = u16(entry + 8);
          return value >= 1 && value <= 8 ? value : 1;
        }
      }
      return 1;
    }
    i = start + length - 2;
  }
  return 1;
}

/** Pixels, 4 bytes (RGBA) each, row after row. */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The bitmap turned and flipped as an EXIF orientation (2–8) says it is to be shown. */
export function orient(src: Bitmap, orientation: number): Bitmap {
  if (orientation < 2 || orientation > 8) return src;
  const { width: w, height: h } = src;
  const swaps = orientation >= 5;
  const outW = swaps ? h : w;
  const outH = swaps ? w : h;
  const out = new Uint8Array(src.data.length);
  const source = new Uint32Array(src.data.buffer, src.data.byteOffset, w * h);
  const target = new Uint32Array(out.buffer, 0, outW * outH);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let sx: number, sy: number;
      switch (orientation) {
        case 2: sx = w - 1 - x; sy = y; break;
        case 3: sx = w - 1 - x; sy = h - 1 - y; break;
        case 4: sx = x; sy = h - 1 - y; break;
        case 5: sx = y; sy = x; break;
        case 6: sx = y; sy = h - 1 - x; break;
        case 7: sx = w - 1 - y; sy = h - 1 - x; break;
        default: sx = w - 1 - y; sy = x; break;
      }
      target[y * outW + x] = source[sy * w + sx]!;
    }
  }
  return { width: outW, height: outH, data: out };
}

/** The filter taps of one axis: for each output pixel, the source pixels it covers and by how much. */
function taps(start: number, span: number, out: number): { first: Int32Array; count: Int32Array; weights: Float32Array; stride: number } {
  const scale = span / out;
  const end = start + span;
  const stride = Math.ceil(scale) + 1;
  const first = new Int32Array(out);
  const count = new Int32Array(out);
  const weights = new Float32Array(out * stride);
  for (let i = 0; i < out; i++) {
    const from = start + i * scale;
    const to = from + scale;
    const lo = Math.floor(from);
    first[i] = lo;
    let n = 0;
    for (let s = lo; s < Math.min(to, end) && n < stride; s++, n++) weights[i * stride + n] = (Math.min(to, s + 1) - Math.max(from, s)) / scale;
    count[i] = n;
  }
  return { first, count, weights, stride };
}

/**
 * The area of `plan` drawn at its size: each copy pixel is the average of the source area it covers
 * (colours weighted by their opacity, so transparent pixels lend no colour to their neighbours).
 */
export function resample(src: Bitmap, plan: SizePlan): Bitmap {
  const { width: outW, height: outH } = plan;
  const xs = taps(plan.cropX, plan.cropWidth, outW);
  const ys = taps(plan.cropY, plan.cropHeight, outH);
  const out = new Uint8Array(outW * outH * 4);
  // The source rows one band of output rows reads, at most.
  const bandSpan = (first: number, last: number) => ys.first[last]! + ys.count[last]! - ys.first[first]!;
  let widest = 0;
  for (let y0 = 0; y0 < outH; y0 += BAND_ROWS) widest = Math.max(widest, bandSpan(y0, Math.min(outH, y0 + BAND_ROWS) - 1));
  const mid = new Float32Array(outW * widest * 4);
  for (let y0 = 0; y0 < outH; y0 += BAND_ROWS) {
    const y1 = Math.min(outH, y0 + BAND_ROWS);
    const top = ys.first[y0]!;
    const rows = bandSpan(y0, y1 - 1);
    // Horizontal pass over the band's source rows, into premultiplied floats.
    for (let y = 0; y < rows; y++) {
      const rowStart = (top + y) * src.width * 4;
      for (let x = 0; x < outW; x++) {
        let r = 0, g = 0, b = 0, a = 0;
        const base = x * xs.stride;
        for (let k = 0, s = xs.first[x]!; k < xs.count[x]!; k++, s++) {
          const i = rowStart + s * 4;
          const w = xs.weights[base + k]!;
          const alpha = src.data[i + 3]! * w;
          r += src.data[i]! * alpha;
          g += src.data[i + 1]! * alpha;
          b += src.data[i + 2]! * alpha;
          a += alpha;
        }
        const o = (y * outW + x) * 4;
        mid[o] = r;
        mid[o + 1] = g;
        mid[o + 2] = b;
        mid[o + 3] = a;
      }
    }
    // Vertical pass: the band's output rows.
    for (let y = y0; y < y1; y++) {
      const base = y * ys.stride;
      for (let x = 0; x < outW; x++) {
        let r = 0, g = 0, b = 0, a = 0;
        for (let k = 0, s = ys.first[y]! - top; k < ys.count[y]!; k++, s++) {
          const i = (s * outW + x) * 4;
          const w = ys.weights[base + k]!;
          r += mid[i]! * w;
          g += mid[i + 1]! * w;
          b += mid[i + 2]! * w;
          a += mid[i + 3]! * w;
        }
        const o = (y * outW + x) * 4;
        if (a > 0) {
          out[o] = Math.min(255, Math.round(r / a));
          out[o + 1] = Math.min(255, Math.round(g / a));
          out[o + 2] = Math.min(255, Math.round(b / a));
        }
        out[o + 3] = Math.min(255, Math.round(a));
      }
    }
  }
  return { width: outW, height: outH, data: out };
}

/** The pixels of a JPEG or PNG file (throws on a broken one). */
export function decodeImage(mime: string, bytes: Uint8Array): Bitmap {
  if (mime === 'image/jpeg') {
    const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_RESIZE_PIXELS / 1e6, maxMemoryUsageInMB: 512 });
    return { width: image.width, height: image.height, data: image.data };
  }
  const image = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: image.width, height: image.height, data: image.data };
}

export function encodeImage(mime: string, bitmap: Bitmap): Buffer {
  if (mime === 'image/jpeg') return jpeg.encode({ width: bitmap.width, height: bitmap.height, data: bitmap.data }, JPEG_QUALITY).data;
  // `sync.write` reads only the size and the pixels of the PNG object it is given.
  return PNG.sync.write({ width: bitmap.width, height: bitmap.height, data: Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength) } as PNG);
}

/** A copy made, with its pixel size and file. */
export interface RenderedCopy {
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** What {@link renderImageSizes} made: the main copy replacing the file, if any, and each size by name. */
export interface RenderedImage {
  main?: RenderedCopy & { suffix: 'scaled' | 'rotated' };
  sizes: (RenderedCopy & { name: string })[];
}

/** Which copies of an image's plan to render: the named sizes, and the main copy or not. */
export interface RenderPick {
  sizes: readonly string[];
  main: boolean;
}

/** The part of `plan` that `pick` names. */
function pickedPlan(plan: ImagePlan, pick: RenderPick): ImagePlan {
  const sizes = plan.sizes.filter((s) => pick.sizes.includes(s.name));
  return pick.main && plan.main ? { main: plan.main, sizes } : { sizes };
}

/**
 * The copies WordPress would make of a `width` × `height` image (as stored) of this type (none for
 * types and sizes that get none), or those of them `pick` names; throws on a file that cannot be
 * decoded or is not the size its header gives.
 */
export function renderImageSizes(mime: string, bytes: Uint8Array, width: number, height: number, pick?: RenderPick): RenderedImage {
  const planned = planImageFile(mime, bytes, width, height);
  const { orientation } = planned;
  const plan = pick ? pickedPlan(planned.plan, pick) : planned.plan;
  if (!plan.main && plan.sizes.length === 0) return { sizes: [] };
  const stored = decodeImage(mime, bytes);
  if (stored.width !== width || stored.height !== height) throw new Error('the decoded image is not the size its header gives');
  const source = orient(stored, orientation);
  const copy = (p: SizePlan): RenderedCopy => ({ width: p.width, height: p.height, bytes: encodeImage(mime, resample(source, p)) });
  const sizes = plan.sizes.map((p) => ({ name: p.name, ...copy(p) }));
  return plan.main ? { main: { suffix: plan.main.suffix, ...copy(plan.main) }, sizes } : { sizes };
}

/**
 * The plan of a file as stored (`width` × `height` as its header gives them), with its EXIF orientation;
 * cheap: the file is not decoded. Interlaced PNGs get nothing: their decoder inflates the pixel data
 * without a bound, so a small file could take gigabytes.
 */
export function planImageFile(mime: string, bytes: Uint8Array, width: number, height: number): { plan: ImagePlan; orientation: number } {
  if (unresizable(mime, bytes, width, height)) return { plan: { sizes: [] }, orientation: 1 };
  const orientation = mime === 'image/jpeg' ? jpegOrientation(bytes) : 1;
  const [w, h] = orientation >= 5 ? [height, width] : [width, height];
  return { plan: planImage(mime, w, h, orientation !== 1), orientation };
}

/**
 * Why a file gets no copies whatever its size, or undefined when it may get some: its type has no
 * editor here, it is an interlaced PNG, or it is too large to decode (`planImage`'s bounds).
 */
export function unresizable(mime: string, bytes: Uint8Array, width: number, height: number): 'type' | 'interlaced' | 'too-large' | undefined {
  if (!RESIZABLE.has(mime)) return 'type';
  if (mime === 'image/png' && (bytes.length < 29 || bytes[28] !== 0)) return 'interlaced';
  if (width * height > MAX_RESIZE_PIXELS || width > MAX_RESIZE_SIDE || height > MAX_RESIZE_SIDE) return 'too-large';
  return undefined;
}
