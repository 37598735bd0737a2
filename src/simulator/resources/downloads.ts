/**
 * The two GETs that answer a file rather than a page: `/logs` and `/keytabs/download`. The 1.x table gives them
 * models without fields (LogDownloadResponse, KeytabDownloadUploadResponse) and Pure's 1.x SDK asks for
 * `application/octet-stream` first; the 2.x facts say `octet-stream` (string(binary), KeytabFileResponse). Arrays
 * answer the bytes with `Content-Type: application/octet-stream` and name the file in `Content-Disposition`.
 */
import type { Json } from "../models/body.js";
import { badRequest, type SimResult } from "../types.js";
import type { Handler } from "./common.js";
import { collection } from "./generic.js";

function file(filename: string, bytes: Buffer): SimResult {
  return { file: { filename, contentType: "application/octet-stream", bytes } };
}

function timeParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw badRequest(`'${name}' must be milliseconds since the epoch.`, value);
  return Number(value);
}

/** The array's log over `start_time`..`end_time` (default: the last day), as text: its audit trail and alerts. */
export const downloadLogs: Handler = (req, state) => {
  const now = state.clock();
  const end = timeParam(req.query.string("end_time"), "end_time") ?? now;
  const start = timeParam(req.query.string("start_time"), "start_time") ?? end - 86_400_000;
  if (start > end) throw badRequest("'start_time' must not be after 'end_time'.");
  const lines: [number, string][] = [];
  for (const a of state.audits)
    if (a.time >= start && a.time <= end)
      lines.push([a.time, `audit ${a.user} ${a.command} ${a.subcommand} ${a.arguments}`.trimEnd()]);
  for (const a of state.alerts.values())
    if (a.updated >= start && a.updated <= end)
      lines.push([a.updated, `alert ${a.index} ${a.severity} ${a.state} code=${a.code} ${a.component}`]);
  lines.sort((x, y) => x[0] - y[0]);
  const text = lines.map(([t, l]) => `${new Date(t).toISOString()} ${state.array.name} ${l}\n`).join("");
  return file(`${state.array.name}-logs-${start}-${end}.log`, Buffer.from(text, "utf8"));
};

/** One MIT keytab entry (format version 0x502): principal, timestamp, kvno, encryption type and a key. */
function keytabEntry(k: Json, created: number): Buffer {
  const [service = "", rest = ""] = String(k["principal"] ?? "").split("/");
  const host = rest.split("@")[0] ?? "";
  const counted = (s: string) => {
    const b = Buffer.from(s, "utf8");
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return Buffer.concat([len, b]);
  };
  const head = Buffer.alloc(2);
  head.writeUInt16BE(2); // two name components: service and host
  const tail = Buffer.alloc(4 + 4 + 1 + 2);
  tail.writeUInt32BE(1, 0); // KRB5_NT_PRINCIPAL
  tail.writeUInt32BE(Math.floor(created / 1000), 4);
  tail.writeUInt8(Number(k["kvno"] ?? 1) & 0xff, 8);
  tail.writeUInt16BE(String(k["encryption_type"]).includes("256") ? 18 : 17, 9);
  // A simulated key: deterministic bytes, not a key of anything real.
  const key = Buffer.from(
    String(k["id"] ?? k["name"])
      .replace(/-/g, "")
      .padEnd(32, "0")
      .slice(0, 32),
    "hex",
  );
  const body = Buffer.concat([
    head,
    counted(String(k["realm"] ?? "")),
    counted(service),
    counted(host),
    tail,
    counted(key.toString("latin1")),
  ]);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

/** The selected keytabs (`keytab_names` / `keytab_ids`, default all) as one keytab file. */
export const downloadKeytabs: Handler = (req, state) => {
  const all = [...collection(state, "/keytabs").items.values()];
  const names = req.query.list("keytab_names");
  const ids = req.query.list("keytab_ids");
  for (const n of names ?? [])
    if (!all.some((k) => k["name"] === n)) throw badRequest(`Keytab '${n}' does not exist.`, n);
  for (const i of ids ?? [])
    if (!all.some((k) => k["id"] === i)) throw badRequest(`No keytab has id '${i}'.`, i);
  const chosen = all.filter(
    (k) =>
      (names === undefined || names.includes(String(k["name"]))) &&
      (ids === undefined || ids.includes(String(k["id"]))),
  );
  if (chosen.length === 0) throw badRequest("There are no keytabs to download.");
  const version = Buffer.from([0x05, 0x02]);
  const bytes = Buffer.concat([version, ...chosen.map((k) => keytabEntry(k, state.clock()))]);
  const prefixes = [...new Set(chosen.map((k) => String(k["prefix"] ?? "keytabs")))];
  return file(`${prefixes.length === 1 ? prefixes[0] : "keytabs"}.keytab`, bytes);
};
