/**
 * /file-system-replica-links/transfer and /file-system-snapshots/transfer (1.9+): the snapshot transfers of
 * file system replica links with a policy: the snapshots its policies took, sent one after another
 * (models/link-transfers.ts), so a transfer names a snapshot `snapshot list` shows and the link's lag is
 * measured from the newest one sent. A stalled (paused or broken) link sends nothing after it stopped.
 * Transfers a scenario stores (a one-off snapshot being sent) are listed too. DELETE cancels transfers that
 * have not completed, by snapshot name and remote.
 */
import { atLeast } from "../../rest-spec/versions.js";
import type { FileSystemReplicaLinkRec } from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, requireList } from "./common.js";
import { collection } from "./generic.js";
import { fsLinkTransfers, remoteRef } from "./link-common.js";

/** Bytes a transfer sends per millisecond of its duration (about 200 MB/s), for data_transferred. */
const BYTES_PER_MS = 200_000;

/** A link's transfers as the array lists them: the snapshot's own name here, the same suffix on the target. */
function transfersOf(state: SimState, l: FileSystemReplicaLinkRec): Record<string, unknown>[] {
  const now = state.clock();
  return fsLinkTransfers(state, l).transfers.map((t) => {
    const suffix = t.snapshot.name.slice(l.localFileSystem.length + 1);
    const from = t.started ?? now;
    const sending = t.status === "completed" ? (t.completed ?? now) - from : Math.max(0, now - from);
    return {
      id: `${l.id}-${t.snapshot.name}`,
      name: t.snapshot.name,
      direction: "outbound",
      // Whole milliseconds: both generations type them int64 (the schedule's arithmetic leaves fractions).
      started: t.started === null ? null : Math.round(t.started),
      completed: t.completed === null ? null : Math.round(t.completed),
      // A fraction in [0, 1] (the SDK's FileSystemSnapshotsTransfer refuses anything above 1).
      progress: t.progress,
      status: t.status,
      data_transferred: t.status === "queued" ? 0 : Math.round(sending * BYTES_PER_MS),
      remote: remoteRef(state.arrayConnections.get(l.remoteId)),
      remote_snapshot: { name: `${l.remoteFileSystem}.${suffix}`, id: null },
    };
  });
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
