import { defineResource } from "../../src/core/define-command.js";
import {
  accessKeyCreate,
  accessKeyDelete,
  accessKeyDisable,
  accessKeyEnable,
  accessKeyList,
} from "./access-key.js";

export const accessKeyResource = defineResource({
  name: "access-key",
  aliases: ["access-keys", "object-store-access-key", "object-store-access-keys"],
  summary: "S3 access keys of object store users; a new key's secret is shown once, to its requester alone",
  commands: [accessKeyList, accessKeyCreate, accessKeyEnable, accessKeyDisable, accessKeyDelete],
});
