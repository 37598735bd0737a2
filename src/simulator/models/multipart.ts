/**
 * A multipart/form-data body as an array reads one (POST /keytabs/upload's `keytab_file`): the body arrives as
 * latin1 text (one character per byte, so a file's bytes survive), split at the boundary the content-type names.
 * A part with a filename is a file, `{filename, bytes}`; any other is its text.
 */
import { SimHttpError } from "../types.js";

export interface FilePart {
  filename: string;
  bytes: Buffer;
}

const BOUNDARY = /boundary=(?:"([^"]+)"|([^;\s]+))/i;

export function isMultipart(contentType: string | undefined): boolean {
  return contentType?.toLowerCase().startsWith("multipart/form-data") === true;
}

export function parseMultipart(latin1: string, contentType: string): Record<string, FilePart | string> {
  const m = BOUNDARY.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw new SimHttpError(400, "A multipart/form-data body needs a boundary.", "body");
  const out: Record<string, FilePart | string> = {};
  const pieces = latin1.split(`--${boundary}`);
  // Before the first boundary is a preamble; after the closing one (`--`) an epilogue.
  for (const piece of pieces.slice(1)) {
    if (piece.startsWith("--")) break;
    const split = piece.indexOf("\r\n\r\n");
    if (split < 0) throw new SimHttpError(400, "A form-data part has no headers.", "body");
    const head = piece.slice(0, split);
    const content = piece.slice(split + 4).replace(/\r\n$/, "");
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (!name) throw new SimHttpError(400, "A form-data part has no name.", "body");
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    out[name] =
      filename === undefined
        ? Buffer.from(content, "latin1").toString("utf8")
        : { filename, bytes: Buffer.from(content, "latin1") };
  }
  return out;
}

/** What the request log keeps of a form: its parts' names, a file by its size only. */
export function loggedForm(latin1: string, contentType: string): string {
  try {
    const parts = parseMultipart(latin1, contentType);
    const shown = Object.fromEntries(
      Object.entries(parts).map(([k, v]) => [
        k,
        typeof v === "string" ? v : `<file, ${v.bytes.length} bytes>`,
      ]),
    );
    return JSON.stringify(shown);
  } catch {
    return `[${latin1.length} bytes, not a form]`;
  }
}
