/**
 * A small, independent PNG reader for tests: walks the chunks, checks each CRC with node:zlib's crc32 (not
 * ours), inflates IDAT and undoes filter type 0, so a test can look at the pixels the chart drew.
 */
import { crc32, inflateSync } from "node:zlib";

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  chunks: string[];
  palette: [number, number, number][];
  /** Inflated scanlines, filter bytes included. */
  raw: Uint8Array;
  /** Palette index at (x, y). */
  at(x: number, y: number): number;
}

export const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function decodePng(bytes: Uint8Array): DecodedPng {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!SIGNATURE.every((b, i) => buf[i] === b)) throw new Error("not a PNG signature");
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  let plte: Buffer | undefined;
  let at = 8;
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    const crc = buf.readUInt32BE(at + 8 + len);
    if (crc32(buf.subarray(at + 4, at + 8 + len)) !== crc) throw new Error(`bad CRC in ${type}`);
    chunks.push(type);
    if (type === "IHDR") ihdr = data;
    if (type === "PLTE") plte = data;
    if (type === "IDAT") idat.push(data);
    at += 12 + len;
  }
  if (at !== buf.length) throw new Error("trailing bytes after the last chunk");
  if (!ihdr) throw new Error("no IHDR");
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const palette: [number, number, number][] = [];
  for (let i = 0; plte && i + 2 < plte.length; i += 3)
    palette.push([plte[i] ?? 0, plte[i + 1] ?? 0, plte[i + 2] ?? 0]);
  const raw = new Uint8Array(inflateSync(Buffer.concat(idat)));
  return {
    width,
    height,
    bitDepth: ihdr[8] ?? 0,
    colorType: ihdr[9] ?? 0,
    chunks,
    palette,
    raw,
    at(x, y) {
      if (raw[y * (width + 1)] !== 0) throw new Error(`row ${y} uses a filter this reader does not undo`);
      return raw[y * (width + 1) + 1 + x] ?? -1;
    },
  };
}
