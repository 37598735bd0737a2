/**
 * A CSV written to a temporary file row by row, for listings longer than the bot keeps in memory: rows are
 * buffered in 64 KiB chunks and appended, so memory stays flat however many pages the array returns.
 */
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpooledFile, TableColumn } from "./message.js";
import { csvLine } from "./table.js";

const CHUNK = 64 * 1024;

export interface CsvSpool {
  write(row: Record<string, string>): Promise<void>;
  /** Flushes and closes; the file is then the caller's to send and remove. */
  finish(): Promise<SpooledFile>;
  /** Closes and removes the file (the listing failed half-way). */
  abort(): Promise<void>;
  readonly rows: number;
}

export async function createCsvSpool(columns: readonly TableColumn[], filename: string): Promise<CsvSpool> {
  const dir = await mkdtemp(join(tmpdir(), "array-chatops-csv-"));
  const path = join(dir, filename);
  const file: FileHandle = await open(path, "w");
  let buffer = `${csvLine(columns)}\r\n`;
  let bytes = 0;
  let rows = 0;
  const flush = async () => {
    if (buffer === "") return;
    const chunk = Buffer.from(buffer, "utf8");
    buffer = "";
    bytes += chunk.byteLength;
    await file.write(chunk);
  };
  return {
    get rows() {
      return rows;
    },
    async write(row) {
      buffer += `${csvLine(columns, row)}\r\n`;
      rows++;
      if (buffer.length >= CHUNK) await flush();
    },
    async finish() {
      await flush();
      await file.close();
      return { kind: "spooled", path, bytes };
    },
    async abort() {
      await file.close().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Removes a spooled file and its folder; a file already gone is not an error. */
export async function removeSpooled(file: SpooledFile): Promise<void> {
  await rm(join(file.path, ".."), { recursive: true, force: true });
}
