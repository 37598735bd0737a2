import { defineResource } from "../../src/core/define-command.js";
import { snapshotCount } from "./count.js";
import { snapshotCreateCommand } from "./create.js";
import { snapshotDestroy, snapshotEradicate, snapshotRecover } from "./lifecycle.js";
import { snapshotList } from "./list.js";

export const snapshotResource = defineResource({
  name: "snapshot",
  aliases: ["snapshots", "snap"],
  summary: "File system snapshots",
  commands: [
    snapshotList,
    snapshotCreateCommand,
    snapshotDestroy,
    snapshotRecover,
    snapshotEradicate,
    snapshotCount,
  ],
});
