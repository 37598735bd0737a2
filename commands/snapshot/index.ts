import { defineResource } from "../../src/core/define-command.js";
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
