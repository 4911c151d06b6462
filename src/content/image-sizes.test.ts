/**
 * Image sizes as WordPress makes them: the pixel sizes and crops of `image_resize_dimensions` and
 * `wp_constrain_dimensions` (the cases of WordPress's `tests/image/dimensions.php`, worked out from the
 * functions' rules), which sizes an image gets, and copies that are real images of those sizes.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { constrainDimensions, decodeImage, jpegOrientation, orient, planImage, planImageFile, renderImageSizes, resample, resizeDimensions, unresizable, type Bitmap } from './image-sizes.js';
import { renderImageSizesOffThread } from './image-worker.js';
import { withOrientation } from '../test-support/images.js';

/** [src_x, src_y, dst_w, dst_h, src_w, src_h] as `image_resize_dimensions` orders them (after its two zeros). */
const dims = (w: number, h: number, bw: number, bh: number, crop: boolean) => {
  const p = resizeDimensions(w, h, bw, bh, crop);
  return p && [p.cropX, p.cropY, p.width, p.height, p.cropWidth, p.cropHeight];
};

/** A `width` × `height` bitmap whose pixels `colour` gives. */
function bitmap(width: number, height: number, colour: (x: number, y: number) => [number, number, number, number]): Bitmap {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(colour(x, y), (y * width + x) * 4);
  return { width, height, data };
}

const gradient = (width: number, height: number) => bitmap(width, height, (x, y) => [(x * 255) / width, (y * 255) / height, 128, 255]);

describe('resizeDimensions (image_resize_dimensions)', () => {
  it('fits a box without cropping, one side free when the box gives 0', () => {
    expect(dims(640, 480, 400, 0, false)).toEqual([0, 0, 400, 300, 640, 480]);
    expect(dims(640, 480, 0, 400, false)).toEqual([0, 0, 533, 400, 640, 480]);
    expect(dims(640, 480, 400, 500, false)).toEqual([0, 0, 400, 300, 640, 480]);
    expect(dims(640, 480, 500, 400, false)).toEqual([0, 0, 500, 375, 640, 480]);
  });

  it('crops around the centre to the box, never beyond the image', () => {
    expect(dims(640, 480, 400, 400, true)).toEqual([80, 0, 400, 400, 480, 480]);
    expect(dims(640, 480, 400, 500, true)).toEqual([120, 0, 400, 480, 400, 480]);
    expect(dims(640, 480, 300, 200, true)).toEqual([0, 26, 300, 200, 640, 427]);
    expect(dims(1600, 900, 150, 150, true)).toEqual([350, 0, 150, 150, 900, 900]);
  });

  it('makes nothing for an image already within a pixel of the copy, or an empty box', () => {
    expect(dims(640, 480, 1024, 1024, false)).toBeUndefined();
    expect(dims(640, 480, 641, 481, true)).toBeUndefined();
    expect(dims(300, 301, 300, 300, false)).toBeUndefined();
    expect(dims(640, 480, 0, 0, false)).toBeUndefined();
    expect(dims(0, 480, 100, 100, false)).toBeUndefined();
  });

  it('rounds as wp_constrain_dimensions does, bumping a side one pixel short of the box', () => {
    expect(constrainDimensions(465, 700, 177, 177)).toEqual([118, 177]);
    expect(constrainDimensions(1600, 900, 300, 300)).toEqual([300, 169]);
    expect(constrainDimensions(5, 1000, 300, 300)).toEqual([2, 300]);
    expect(constrainDimensions(1000, 1, 300, 300)).toEqual([300, 1]);
    expect(constrainDimensions(640, 480, 0, 0)).toEqual([640, 480]);
  });
});

describe('planImage', () => {
  it('gives the registered sizes an image is larger than, in the order WordPress makes them', () => {
    const plan = planImage('image/jpeg', 1600, 900);
    expect(plan.main).toBeUndefined();
    expect(plan.sizes.map((s) => [s.name, s.width, s.height])).toEqual([
      ['medium', 300, 169],
      ['large', 1024, 576],
      ['thumbnail', 150, 150],
      ['medium_large', 768, 432],
      ['1536x1536', 1536, 864],
    ]);
    expect(planImage('image/png', 200, 100).sizes.map((s) => [s.name, s.width, s.height])).toEqual([['thumbnail', 150, 100]]);
  });

  it('scales JPEGs beyond 2,560 pixels a side, never PNGs; GIF, WebP and huge images get nothing', () => {
    expect(planImage('image/jpeg', 3000, 2000).main).toMatchObject({ suffix: 'scaled', width: 2560, height: 1707 });
    expect(planImage('image/jpeg', 3000, 2000).sizes.map((s) => s.name)).toEqual(['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', '2048x2048']);
    expect(planImage('image/png', 3000, 2000).main).toBeUndefined();
    // An image stored turned gets an upright copy of its full size (a large one: the scaled copy is upright).
    expect(planImage('image/jpeg', 300, 400, true).main).toMatchObject({ suffix: 'rotated', width: 300, height: 400 });
    expect(planImage('image/jpeg', 3000, 2000, true).main).toMatchObject({ suffix: 'scaled' });
    expect(planImage('image/gif', 1600, 900)).toEqual({ sizes: [] });
    expect(planImage('image/webp', 1600, 900)).toEqual({ sizes: [] });
    expect(planImage('image/jpeg', 10_000, 10_000)).toEqual({ sizes: [] });
    // A thin strip is few pixels but a long side, which the decoder pays for row by row.
    expect(planImage('image/png', 1, 2_000_000)).toEqual({ sizes: [] });
    expect(planImage('image/jpeg', 20_000, 1_000)).toEqual({ sizes: [] });
  });

  it('gives an interlaced PNG nothing, without decoding it (its decoder inflates without a bound)', () => {
    const flat = bitmap(400, 200, () => [1, 2, 3, 255]);
    const file = PNG.sync.write({ width: 400, height: 200, data: Buffer.from(flat.data) } as PNG);
    expect(planImageFile('image/png', file, 400, 200).plan.sizes.map((s) => s.name)).toEqual(['medium', 'thumbnail']);
    const interlaced = Buffer.from(file);
    interlaced[28] = 1; // the header's interlace method: Adam7
    expect(planImageFile('image/png', interlaced, 400, 200).plan).toEqual({ sizes: [] });
    expect(renderImageSizes('image/png', interlaced, 400, 200)).toEqual({ sizes: [] });
  });
});

describe('resample', () => {
  it('averages the area each copy pixel covers', () => {
    // 4 × 2 → 2 × 1: each copy pixel is the mean of a 2 × 2 block.
    const src = bitmap(4, 2, (x, y) => [x < 2 ? (y === 0 ? 0 : 100) : 200, 50, x * 10, 255]);
    const out = resample(src, { width: 2, height: 1, cropX: 0, cropY: 0, cropWidth: 4, cropHeight: 2 });
    expect([...out.data]).toEqual([50, 50, 5, 255, 200, 50, 25, 255]);
  });

  it('takes the crop only, and lends transparent pixels no colour', () => {
    const src = bitmap(3, 1, (x) => (x === 0 ? [255, 0, 0, 255] : x === 1 ? [0, 0, 255, 0] : [0, 255, 0, 255]));
    expect([...resample(src, { width: 1, height: 1, cropX: 1, cropY: 0, cropWidth: 2, cropHeight: 1 }).data]).toEqual([0, 255, 0, 128]);
    expect([...resample(src, { width: 1, height: 1, cropX: 0, cropY: 0, cropWidth: 2, cropHeight: 1 }).data]).toEqual([255, 0, 0, 128]);
  });

  it('averages across bands of rows as within one', () => {
    // 1 × 1000, row y of value y / 5: each of the 100 copy rows is the mean of ten source rows (2i + 0.9).
    const src = bitmap(1, 1000, (_x, y) => [y / 5, 0, 0, 255]);
    const out = resample(src, { width: 1, height: 100, cropX: 0, cropY: 0, cropWidth: 1, cropHeight: 1000 });
    expect([...out.data].filter((_, i) => i % 4 === 0)).toEqual(Array.from({ length: 100 }, (_, i) => Math.round(i * 2 + 0.9)));
  });

  it('keeps a flat colour flat at any ratio', () => {
    const src = bitmap(97, 61, () => [10, 200, 30, 255]);
    const out = resample(src, { width: 13, height: 7, cropX: 5, cropY: 3, cropWidth: 80, cropHeight: 50 });
    for (let i = 0; i < out.data.length; i += 4) expect([...out.data.subarray(i, i + 4)]).toEqual([10, 200, 30, 255]);
  });
});

describe('EXIF orientation', () => {
  const small = jpeg.encode({ width: 4, height: 2, data: Buffer.alloc(32, 200) }, 90).data;

  it('is read from the JPEG\'s EXIF segment in either byte order; 1 without one', () => {
    expect(jpegOrientation(withOrientation(small, 6))).toBe(6);
    expect(jpegOrientation(withOrientation(small, 8, true))).toBe(8);
    expect(jpegOrientation(small)).toBe(1);
    expect(jpegOrientation(withOrientation(small, 9))).toBe(1);
    expect(jpegOrientation(withOrientation(small, 6).subarray(0, 30))).toBe(1);
  });

  it('turns and flips the pixels as each orientation says', () => {
    // 3 × 2 pixels numbered 1–6 row by row (in the red byte).
    const src = bitmap(3, 2, (x, y) => [1 + x + 3 * y, 0, 0, 255]);
    const shown = (o: number) => {
      const out = orient(src, o);
      return [out.width, out.height, [...out.data].filter((_, i) => i % 4 === 0).join('')];
    };
    expect(shown(1)).toEqual([3, 2, '123456']);
    expect(shown(2)).toEqual([3, 2, '321654']);
    expect(shown(3)).toEqual([3, 2, '654321']);
    expect(shown(4)).toEqual([3, 2, '456123']);
    expect(shown(5)).toEqual([2, 3, '142536']);
    expect(shown(6)).toEqual([2, 3, '415263']);
    expect(shown(7)).toEqual([2, 3, '635241']);
    expect(shown(8)).toEqual([2, 3, '362514']);
  });

  it('makes the copies of an image stored turned upright, with an upright full-size copy as the main file', () => {
    // Stored 400 × 300, to be shown turned a quarter clockwise: 300 × 400, left half red in storage → top half red shown.
    const stored = bitmap(400, 300, (x) => (x < 200 ? [255, 0, 0, 255] : [0, 0, 255, 255]));
    const file = withOrientation(jpeg.encode({ ...stored, data: Buffer.from(stored.data) }, 90).data, 6);
    const rendered = renderImageSizes('image/jpeg', file, 400, 300);
    expect(rendered.main).toMatchObject({ suffix: 'rotated', width: 300, height: 400 });
    expect(rendered.sizes.map((s) => `${s.name} ${s.width}x${s.height}`)).toEqual(['medium 225x300', 'thumbnail 150x150']);
    const medium = decodeImage('image/jpeg', rendered.sizes[0]!.bytes);
    expect(medium.data[0]).toBeGreaterThan(200); // top left: red
    expect(medium.data[(299 * 225) * 4 + 2]).toBeGreaterThan(200); // bottom left: blue
  });
});

describe('renderImageSizes', () => {
  const source = gradient(800, 450);
  const file = jpeg.encode({ ...source, data: Buffer.from(source.data) }, 90).data;

  it('makes each planned size as a JPEG of that size, close to the original', () => {
    const rendered = renderImageSizes('image/jpeg', file, 800, 450);
    expect(rendered.main).toBeUndefined();
    expect(rendered.sizes.map((s) => `${s.name} ${s.width}x${s.height}`)).toEqual(['medium 300x169', 'thumbnail 150x150', 'medium_large 768x432']);
    for (const size of rendered.sizes) {
      const copy = decodeImage('image/jpeg', size.bytes);
      expect([copy.width, copy.height]).toEqual([size.width, size.height]);
    }
    // The thumbnail is the centre square: its edges are the original's x = 175 and 624 (red ≈ 56, 199).
    const thumb = decodeImage('image/jpeg', rendered.sizes.find((s) => s.name === 'thumbnail')!.bytes);
    expect(Math.abs(thumb.data[75 * 150 * 4]! - 56)).toBeLessThan(8);
    expect(Math.abs(thumb.data[75 * 150 * 4 + 149 * 4]! - 199)).toBeLessThan(8);
  });

  it('keeps a PNG a PNG with its transparency', () => {
    const clear = bitmap(400, 200, (x) => (x < 200 ? [255, 0, 0, 255] : [0, 0, 0, 0]));
    const rendered = renderImageSizes('image/png', PNG.sync.write({ width: 400, height: 200, data: Buffer.from(clear.data) } as PNG), 400, 200);
    const medium = rendered.sizes.find((s) => s.name === 'medium')!;
    const copy = PNG.sync.read(Buffer.from(medium.bytes));
    expect([copy.width, copy.height]).toEqual([300, 150]);
    expect([...copy.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect(copy.data[(150 * 300 - 1) * 4 + 3]).toBe(0);
  });

  it('makes only the copies a pick names (what media regenerate --only-missing asks for), on the worker too', async () => {
    const picked = renderImageSizes('image/jpeg', file, 800, 450, { sizes: ['thumbnail', 'nonesuch'], main: false });
    expect(picked.sizes.map((s) => `${s.name} ${s.width}x${s.height}`)).toEqual(['thumbnail 150x150']);
    expect(renderImageSizes('image/jpeg', file, 800, 450, { sizes: [], main: true })).toEqual({ sizes: [] });
    const wide = gradient(2700, 300);
    const big = jpeg.encode({ ...wide, data: Buffer.from(wide.data) }, 90).data;
    const scaledOnly = await renderImageSizesOffThread('image/jpeg', big, 2700, 300, { sizes: [], main: true });
    expect(scaledOnly.main).toMatchObject({ suffix: 'scaled', width: 2560, height: 284 });
    expect(scaledOnly.sizes).toEqual([]);
  }, 60_000);

  it('says why a file gets no copies whatever its size: no editor for the type, interlaced PNG, too large', () => {
    expect(unresizable('image/gif', Buffer.alloc(40), 400, 300)).toBe('type');
    expect(unresizable('image/webp', Buffer.alloc(40), 400, 300)).toBe('type');
    const png = PNG.sync.write({ width: 20, height: 10, data: Buffer.alloc(20 * 10 * 4, 255) } as PNG);
    expect(unresizable('image/png', png, 20, 10)).toBeUndefined();
    const interlaced = Buffer.from(png);
    interlaced[28] = 1;
    expect(unresizable('image/png', interlaced, 20, 10)).toBe('interlaced');
    expect(unresizable('image/jpeg', file, 6000, 5000)).toBe('too-large');
    expect(unresizable('image/jpeg', file, 20_000, 10)).toBe('too-large');
    expect(unresizable('image/jpeg', file, 800, 450)).toBeUndefined();
  });

  it('refuses a file that is not the size its header gives, or not an image at all', () => {
    expect(() => renderImageSizes('image/jpeg', file, 900, 450)).toThrow();
    expect(() => renderImageSizes('image/jpeg', Buffer.from('not a jpeg'), 800, 450)).toThrow();
  });

  it('renders on the worker thread, and reports a broken file as an error there', async () => {
    // A wide strip, so a JPEG beyond 2,560 pixels stays cheap to render.
    const wide = gradient(2700, 300);
    const rendered = await renderImageSizesOffThread('image/jpeg', jpeg.encode({ ...wide, data: Buffer.from(wide.data) }, 90).data, 2700, 300);
    expect(rendered.main).toMatchObject({ suffix: 'scaled', width: 2560, height: 284 });
    expect(decodeImage('image/jpeg', rendered.main!.bytes)).toMatchObject({ width: 2560, height: 284 });
    expect(rendered.sizes.map((s) => `${s.name} ${s.width}x${s.height}`)).toEqual(['medium 300x33', 'large 1024x114', 'thumbnail 150x150', 'medium_large 768x85', '1536x1536 1536x171', '2048x2048 2048x228']);
    const small = PNG.sync.write({ width: 200, height: 100, data: Buffer.alloc(200 * 100 * 4, 255) } as PNG);
    await expect(renderImageSizesOffThread('image/png', Buffer.concat([small.subarray(0, 40), Buffer.alloc(30)]), 400, 400)).rejects.toThrow();
    // At most eight renders wait behind the running one; more are refused.
    const burst = await Promise.allSettled(Array.from({ length: 10 }, () => renderImageSizesOffThread('image/png', small, 200, 100)));
    expect(burst.map((r) => r.status)).toEqual([...Array(9).fill('fulfilled'), 'rejected']);
    expect(String((burst[9] as PromiseRejectedResult).reason)).toMatch(/too many images/);
    // The worker survives a broken file.
    expect((await renderImageSizesOffThread('image/jpeg', file, 800, 450)).sizes).toHaveLength(3);
  }, 60_000);
});
