/**
 * The `snapshot` resource: hand-written list, create and count (see their first comments), and destroy /
 * recover / eradicate from the catalogue's lifecycle trait (lifecycle.ts). Snapshots are not a catalogue noun:
 * their GET selects by `names_or_sources`, not `names`, and a catalogue noun would add a generic show and
 * update (a suffix rename) that the bot does not offer.
 */
import { defineResource } from "../../src/core/catalogue/define-command.js";
import { lifecycleCommands } from "../catalogue/generic/lifecycle.js";
import { snapshotCount } from "./count.js";
import { snapshotCreateCommand } from "./create.js";
import { SNAPSHOT_LIFECYCLE } from "./lifecycle.js";
import { snapshotList } from "./list.js";

export const snapshotResource = defineResource({
  name: "snapshot",
  area: "Protection",
  aliases: ["snapshots", "snap"],
  summary: "File system snapshots",
  commands: [
    snapshotList,
    snapshotCreateCommand,
    ...lifecycleCommands({
      noun: "snapshot",
      path: "/file-system-snapshots",
      lifecycle: SNAPSHOT_LIFECYCLE,
    }),
    snapshotCount,
  ],
});
