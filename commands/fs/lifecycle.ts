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
import { refuseRetained } from "../shared/retention.js";

const asFs = (item: LifecycleItem) => item as unknown as FileSystem;

/** The surroundings read at the same time as a file system, for `view` to take. */
const readBeside = new WeakMap<object, Promise<FileSystemSurroundings>>();

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
  // The surroundings are read beside the file system (one round trip, not two): the impact and each recheck at
  // the Confirm or Approve read the same state sooner.
  async read(ctx, name) {
    const around = surroundings(ctx, { name });
    // Not left unhandled while the file system's own read decides what is told.
    around.catch(() => {});
    const fs = await ctx.array.fileSystems.get(name);
    if (fs) readBeside.set(fs, around);
    return fs as LifecycleItem | undefined;
  },
  async view(ctx, item) {
    const fs = asFs(item);
    // A WORM policy or a legal hold (REST 2.x) makes the array refuse: said before sending, and nothing is sent.
    await refuseRetained(ctx, fs.name);
    const around = await (readBeside.get(fs) ?? surroundings(ctx, fs));
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
