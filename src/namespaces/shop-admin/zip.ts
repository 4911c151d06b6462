/**
 * @module namespaces/shop-admin/zip
 * A strict reader for uploaded theme packages (zip): the central directory is read and every entry
 * checked before anything is inflated — no absolute or `..` paths, no symlinks, only allowed file
 * types, a cap on entries and on the total inflated size (a zip bomb stops at the cap).
 */
import zlib from 'node:zlib';

export class ZipError extends Error {}

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  allowedExtensions: readonly string[];
}

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function findEocd(buf: Buffer): number {
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) if (buf.readUInt32LE(i) === EOCD) return i;
  throw new ZipError('Not a zip file.');
}

function checkName(name: string, limits: ZipLimits): void {
  if (name === '' || name.startsWith('/') || name.includes('\\') || name.includes('\0') || /^[a-zA-Z]:/.test(name)) throw new ZipError(`Unsafe path in the package: ${JSON.stringify(name)}.`);
  if (name.split('/').some((part) => part === '..' || part === '.')) throw new ZipError(`Unsafe path in the package: ${JSON.stringify(name)}.`);
  if (name.endsWith('/')) return;
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  if (!name.includes('.') || !limits.allowedExtensions.includes(ext)) throw new ZipError(`File type not allowed in the package: ${JSON.stringify(name)}.`);
}

/** The files of a zip (directories left out), every entry checked against `limits`. */
export function readZip(buf: Buffer, limits: ZipLimits): ZipEntry[] {
  if (buf.length < 22 || buf.readUInt32LE(0) !== LOCAL) throw new ZipError('Not a zip file.');
  const eocd = findEocd(buf);
  const count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  if (count > limits.maxEntries) throw new ZipError(`The package has more than ${limits.maxEntries} files.`);
  const out: ZipEntry[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (offset + 46 > buf.length || buf.readUInt32LE(offset) !== CENTRAL) throw new ZipError('The package is damaged.');
    const method = buf.readUInt16LE(offset + 10);
    const compressed = buf.readUInt32LE(offset + 20);
    const size = buf.readUInt32LE(offset + 24);
    const nameLen = buf.readUInt16LE(offset + 28);
    const extraLen = buf.readUInt16LE(offset + 30);
    const commentLen = buf.readUInt16LE(offset + 32);
    const external = buf.readUInt32LE(offset + 38);
    const localOffset = buf.readUInt32LE(offset + 42);
    const name = buf.toString('utf8', offset + 46, offset + 46 + nameLen);
    offset += 46 + nameLen + extraLen + commentLen;
    checkName(name, limits);
    if (((external >>> 16) & S_IFMT) === S_IFLNK) throw new ZipError(`Symbolic links are not allowed in the package: ${JSON.stringify(name)}.`);
    if (name.endsWith('/')) continue;
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipError(`The package unpacks to more than ${limits.maxTotalBytes} bytes.`);
    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== LOCAL) throw new ZipError('The package is damaged.');
    const start = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    const raw = buf.subarray(start, start + compressed);
    if (raw.length !== compressed) throw new ZipError('The package is damaged.');
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) {
      try {
        data = zlib.inflateRawSync(raw, { maxOutputLength: size + 1 });
      } catch {
        throw new ZipError(`The package entry ${JSON.stringify(name)} could not be unpacked.`);
      }
    } else throw new ZipError(`Unsupported compression in the package: ${JSON.stringify(name)}.`);
    if (data.length !== size) throw new ZipError(`The package entry ${JSON.stringify(name)} has the wrong size.`);
    out.push({ name, data });
  }
  return out;
}
