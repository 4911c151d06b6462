/** Image files for tests, and a server to side-load them from. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import jpeg from 'jpeg-js';

/** `jpeg` with an EXIF segment (APP1, big- or little-endian TIFF) giving `orientation`, right after its SOI. */
export function withOrientation(jpegBytes: Uint8Array, orientation: number, little = false): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write(little ? 'II' : 'MM', 0, 'latin1');
  const u16 = (v: number, at: number) => (little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  u16(42, 2);
  u32(8, 4); // IFD0 right after the header
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14);
  u16(orientation, 18);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpegBytes.subarray(0, 2), header, payload, jpegBytes.subarray(2)]);
}

/** A real `width` × `height` JPEG: a gradient, so its copies differ from one another. */
export function gradientJpeg(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([(x * 255) / width, (y * 255) / height, 90, 255], (y * width + x) * 4);
  return jpeg.encode({ width, height, data }, 90).data;
}

/** The type a test server sends a file with, by its extension. */
const TYPES: Readonly<Record<string, string>> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif' };

/** A local HTTP server (standing in for a remote host) serving `files` by path; add to the map at will. */
export async function serveFiles(files: Map<string, Buffer>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    const body = files.get(path);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[/\.[a-z]+$/.exec(path)?.[0] ?? ''] ?? 'application/octet-stream', 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
