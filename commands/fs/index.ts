/**
 * The `fs` resource: hand-written verbs where file systems differ from the catalogue's generic ones (see each
 * file's first comment), and destroy / recover / eradicate from the catalogue's lifecycle trait (lifecycle.ts).
 * It is not a catalogue noun because its help order and words are its own (test/slack/golden).
 */
import { defineResource } from "../../src/core/catalogue/define-command.js";
import { lifecycleCommands } from "../catalogue/generic/lifecycle.js";
import { fsCreate } from "./create.js";
import { FS_LIFECYCLE } from "./lifecycle.js";
import { fsList } from "./list.js";
import { fsMounts } from "./mounts.js";
import { fsResize } from "./resize.js";
import { fsShow } from "./show.js";
import { fsTop } from "./top.js";
import { fsUpdate } from "./update.js";

export const fsResource = defineResource({
  name: "fs",
  area: "Storage",
  aliases: ["filesystem", "file-system", "file-systems"],
  summary: "File systems: their space, protocols and lifecycle",
  commands: [
    fsList,
    fsShow,
    fsMounts,
    fsCreate,
    fsResize,
    fsUpdate,
    ...lifecycleCommands({ noun: "fs", path: "/file-systems", lifecycle: FS_LIFECYCLE }),
    fsTop,
  ],
});
