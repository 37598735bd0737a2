/**
 * The lifecycle trait of file systems (destroy, recover, eradicate come from catalogue/generic/lifecycle.ts):
 * the surroundings read before a change (snapshots, replica links, protocols), the destroying request that turns
 * the protocols off and deletes a replica link on eradication, and what recovering brings back.
 */
import { rich } from "../../src/core/presentation/message.js";
import { countOf, formatBytes } from "../../src/core/words/units.js";
import type { FileSystem } from "../../src/flashblade/types.js";
import type { Lifecycle, LifecycleItem } from "../catalogue/spec.js";
import {
  type FileSystemSurroundings,
  fingerprintState,
  impactFacts,
  protocolsOf,
  surroundings,
  usedBytes,
} from "../shared/file-system-facts.js";
import { type Retention, refuseRetained, retentionOf } from "../shared/retention.js";

const asFs = (item: LifecycleItem) => item as unknown as FileSystem;

/** The surroundings and the retention read at the same time as a file system, for `view` to take. */
const readBeside = new WeakMap<
  object,
  { around: Promise<FileSystemSurroundings>; retention: Promise<Retention> }
>();

export const FS_LIFECYCLE: Lifecycle = {
  title: "file system",
  // File system names stand alone in answers: "Destroyed *home* on lab-1."
  called: "",
  summaries: {
    destroy: "Destroy a file system (it stops serving clients; recoverable until eradicated)",
    recover: "Recover a destroyed file system",
    eradicate: "Eradicate a destroyed file system: permanent, needs approval",
  },
  examples: {
    destroy: ["scratch", "scratch --dry-run"],
    recover: ["old-share"],
    eradicate: ["old-share"],
  },
  stops: "it stops serving clients at once",
  // The surroundings and the retention are read beside the file system, all at once, instead of the retention
  // after the rest: the impact and each recheck at the Confirm or Approve read the same state sooner. On REST 2.x
  // that is five reads; over an array's four sockets (`connections`) the fifth still waits a round trip.
  async read(ctx, name) {
    const beside = { around: surroundings(ctx, { name }), retention: retentionOf(ctx, name) };
    // Not left unhandled while the file system's own read decides what is told.
    beside.around.catch(() => {});
    beside.retention.catch(() => {});
    const fs = await ctx.array.fileSystems.get(name);
    if (fs) readBeside.set(fs, beside);
    return fs as LifecycleItem | undefined;
  },
  async view(ctx, item) {
    const fs = asFs(item);
    const beside = readBeside.get(fs);
    // A WORM policy or a legal hold (REST 2.x) makes the array refuse: said before sending, and nothing is sent.
    await refuseRetained(ctx, fs.name, undefined, beside?.retention);
    const around = await (beside?.around ?? surroundings(ctx, fs));
    const warnings = [];
    if (around.links.length > 0)
      warnings.push(rich`${fs.name} has ${countOf(around.links.length, "replica link")}; replication stops.`);
    // Arrays refuse to destroy a file system that still serves a protocol, so the request turns them off.
    const serving = protocolsOf(fs);
    const them = serving.length === 1 ? "it" : "them";
    if (serving.length > 0)
      warnings.push(
        rich`${fs.name} still serves ${serving.join(", ")}; the destroy turns ${them} off, and a recovered file system comes back with ${them} off.`,
      );
    const snaps = around.snapshots > 0 ? ` and its ${countOf(around.snapshots, "snapshot")}` : "";
    return {
      facts: impactFacts(fs, around),
      state: fingerprintState(fs, around),
      warnings,
      lost: `${formatBytes(usedBytes(fs))} of data in ${fs.name}${snaps} will be lost for good.`,
      // A file system with a replica link is destroyed only when asked to delete the link on eradication.
      destroy: await ctx.array.fileSystems.planDestroy(fs.name, {
        deleteLinkOnEradication: around.links.length > 0,
      }),
    };
  },
  recovers(item) {
    const fs = asFs(item);
    const serving = protocolsOf(fs);
    return serving.length
      ? {
          impact: ` (${formatBytes(usedBytes(fs))} used); it serves clients again over ${serving.join(", ")}`,
          done: `; it is serving clients again over ${serving.join(", ")}`,
        }
      : {
          impact: ` (${formatBytes(usedBytes(fs))} used); destroying turned its protocols off, so it serves no clients until you turn them on again`,
          done: `; its protocols are off, so it serves no clients until you turn them on (for example /array fs update ${fs.name} --nfs)`,
        };
  },
};
