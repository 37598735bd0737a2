/**
 * /file-system-replica-links/transfer and /file-system-snapshots/transfer (1.9+): the snapshot transfers of
 * file system replica links with a policy, made up from the policy's schedule on the simulator's clock. Each
 * link shows its last three scheduled snapshots: completed, or in progress while within the transfer time.
 * A stalled (paused or broken) link completes nothing after it stopped; its next transfer waits, queued.
 * Transfers a scenario stores (a one-off snapshot being sent) are listed too. DELETE cancels transfers that
 * have not completed, by snapshot name and remote.
 */
import { atLeast } from "../../rest-spec/versions.js";
import {
  type FileSystemReplicaLinkRec,
  newestSnapshot,
  stalledSince,
  transferTime,
} from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, requireList } from "./common.js";
import { collection } from "./generic.js";
import { linkSchedule, remoteRef } from "./link-common.js";

const SHOWN = 3;
/** Bytes a transfer sends per millisecond of its duration (about 200 MB/s), for data_transferred. */
const BYTES_PER_MS = 200_000;

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace(/[-:T]/g, "_");
}

function transfersOf(state: SimState, l: FileSystemReplicaLinkRec): Record<string, unknown>[] {
  const schedule = linkSchedule(state, l.policies);
  if (schedule === undefined || l.direction === "inbound") return [];
  const every = schedule.every;
  const policy = l.policies.find((p) => state.policies.get(p)?.rules.some((r) => r.every === every)) ?? "";
  const now = state.clock();
  const stalled = stalledSince(l);
  const took = transferTime(every);
  const newest = newestSnapshot(schedule, now);
  const out: Record<string, unknown>[] = [];
  for (let k = 0; k < SHOWN; k++) {
    const started = newest - k * every;
    const done = started + took;
    const finished = done <= now && (stalled === null || done <= stalled);
    const running = !finished && stalled === null;
    // A fraction in [0, 1] (the SDK's FileSystemSnapshotsTransfer refuses anything above 1).
    const progress = finished ? 1 : running ? Math.floor(((now - started) / took) * 100) / 100 : 0;
    const name = `${l.localFileSystem}.${policy}.${stamp(started)}`;
    out.push({
      id: `${l.id}-${started}`,
      name,
      direction: "outbound",
      started,
      completed: finished ? done : null,
      progress,
      status: finished ? "completed" : running ? "in-progress" : "queued",
      data_transferred: (finished ? took : running ? now - started : 0) * BYTES_PER_MS,
      remote: remoteRef(state.arrayConnections.get(l.remoteId)),
      remote_snapshot: { name: `${l.remoteFileSystem}.${policy}.${stamp(started)}`, id: null },
    });
  }
  return out;
}

/** A stored transfer as arrays list it: `progress` a fraction in [0, 1] (the SDK refuses anything else). */
export function checkTransferStands(t: Record<string, unknown>): void {
  const p = t["progress"];
  if (p !== null && (typeof p !== "number" || p < 0 || p > 1))
    throw badRequest(`Transfer '${String(t["name"])}' has progress ${String(p)}, not a fraction in [0, 1].`);
}

/** Where scenarios store transfers that no schedule makes (read by list, removed by cancel). */
export const STORED_TRANSFERS = "/file-system-snapshots/transfer";
/** Ids of scheduled transfers someone cancelled: the schedule would otherwise make them again. */
const cancelled = new WeakMap<SimState, Set<string>>();

function allTransfers(state: SimState): Record<string, unknown>[] {
  const gone = cancelled.get(state);
  return [
    ...[...state.fileSystemReplicaLinks.values()].flatMap((l) => transfersOf(state, l)),
    ...collection(state, STORED_TRANSFERS).items.values(),
  ].filter((t) => !gone?.has(String(t["id"])));
}

export const cancelTransfers: Handler = (req, state) => {
  const names = requireList(req, "names");
  const remotes = req.query.list("remote_names")?.filter((r) => r !== "");
  const all = allTransfers(state);
  const picked = names.map((name) => {
    const t = all.find(
      (x) =>
        x["name"] === name &&
        (!remotes?.length || remotes.includes(String((x["remote"] as { name?: string } | null)?.name))),
    );
    if (!t) throw badRequest(`Snapshot transfer '${name}' does not exist.`, name);
    if (t["status"] === "completed")
      throw badRequest(
        `The transfer of '${name}' has completed; only one not completed can be cancelled.`,
        name,
      );
    return t;
  });
  const stored = collection(state, STORED_TRANSFERS).items;
  for (const t of picked) {
    if (!stored.delete(String(t["name"]))) {
      const gone = cancelled.get(state) ?? new Set<string>();
      gone.add(String(t["id"]));
      cancelled.set(state, gone);
    }
  }
  return EMPTY;
};

export const listTransfers: Handler = (req, state) => {
  const items = allTransfers(state);
  const totals = atLeast(req.version, "1.12") ? "none" : "object";
  return listing(items, req, { totals, nameParams: [] });
};
