/**
 * Operations whose body is multipart form-data rather than JSON (POST /keytabs/upload's `keytab_file`, the same
 * in 1.9+ and 2.x): which of their parts are files. Callers plan such a body as JSON (`{keytab_file: …}`, the
 * file as base64, typed in the private dialog); the client encodes it as the array takes it, and the simulator
 * reads it back. The file itself never reaches a card, a log or a store: only its size is said.
 */
import type { Operation } from "./operations.js";

const FORM = /^form-data:inline\{([^}]*)\}$/;

/** The file parts of an operation sent as form-data, or undefined for a JSON one. */
export function formFiles(op: Operation): readonly string[] | undefined {
  const m = FORM.exec(op.v2?.body ?? "");
  return m ? (m[1] ?? "").split(",").map((s) => s.trim()) : undefined;
}

/** Standard base64 (line breaks and blanks allowed, as `base64` writes a file). */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The bytes of a file typed as base64, or undefined when the text is not base64. */
export function fileBytes(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, "base64"));
}

/**
 * The multipart body of `parts`: a file part (application/octet-stream, named after the part) for each file
 * field, a text part for anything else. The boundary is random per request, so no file's bytes can hold it.
 */
export function multipartBody(
  parts: Readonly<Record<string, string | Uint8Array>>,
  boundary: string,
): Uint8Array {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    const file = typeof value !== "string";
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${name}"` : ""}\r\n` +
          (file ? "Content-Type: application/octet-stream\r\n" : "") +
          "\r\n",
      ),
      file ? Buffer.from(value) : Buffer.from(value, "utf8"),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A planned body of a form-data operation as the wire carries it: each file part's base64 decoded to its bytes,
 * anything else as text. Undefined when a file part is missing or not base64 (the pipeline checks that first).
 */
export function formOf(
  body: unknown,
  files: readonly string[],
  boundary: string,
): { bytes: Uint8Array; contentType: string } | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const parts: Record<string, string | Uint8Array> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (!files.includes(k)) {
      parts[k] = typeof v === "string" ? v : JSON.stringify(v);
      continue;
    }
    const bytes = typeof v === "string" ? fileBytes(v) : undefined;
    if (!bytes) return undefined;
    parts[k] = bytes;
  }
  return { bytes: multipartBody(parts, boundary), contentType: `multipart/form-data; boundary=${boundary}` };
}
