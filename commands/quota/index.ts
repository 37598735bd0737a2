import { defineResource } from "../../src/core/catalogue/define-command.js";
import { quotaDefaults, quotaNotify, quotaSettings } from "./defaults.js";
import { quotaDelete } from "./delete.js";
import { quotaList } from "./list.js";
import { quotaSet } from "./set.js";

export const quotaResource = defineResource({
  name: "quota",
  area: "Storage",
  aliases: ["quotas"],
  summary: "User and group quotas on file systems, default quotas, who is notified",
  commands: [quotaList, quotaSet, quotaDelete, quotaDefaults, quotaSettings, quotaNotify],
});
