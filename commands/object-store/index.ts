import { defineResource } from "../../src/core/catalogue/define-command.js";
import { accessKeyCreate, accessKeyList } from "./access-key.js";
import { accessKeyImport } from "./access-key-import.js";
import { accessKeyRotate } from "./access-key-rotate.js";
import { accountList } from "./account.js";
import { bucketCreateCommand, bucketList } from "./bucket.js";
import { bucketPerf } from "./bucket-perf.js";
import { lifecycleCreate, lifecycleDelete, lifecycleList, lifecycleUpdate } from "./lifecycle.js";
import { objectUserList } from "./user.js";
import { virtualHostList } from "./virtual-host.js";

export const accessKeyResource = defineResource({
  name: "access-key",
  aliases: ["access-keys", "object-store-access-key", "object-store-access-keys"],
  summary: "S3 access keys of object store users; a new key's secret is shown once, to its requester alone",
  commands: [accessKeyList, accessKeyCreate, accessKeyRotate, accessKeyImport],
});

export const bucketResource = defineResource({
  name: "bucket",
  aliases: ["buckets"],
  summary: "S3 buckets: size, objects, versioning; destroying and eradicating are gated",
  commands: [bucketList, bucketCreateCommand, bucketPerf],
});

export const accountResource = defineResource({
  name: "account",
  area: "Object store",
  aliases: ["accounts", "object-store-account", "object-store-accounts"],
  summary: "Object store accounts, with their buckets and users",
  commands: [accountList],
});

export const lifecycleResource = defineResource({
  name: "lifecycle",
  area: "Object store",
  aliases: ["lifecycle-rules"],
  summary: "How long buckets keep previous object versions",
  commands: [lifecycleList, lifecycleCreate, lifecycleUpdate, lifecycleDelete],
});

export const objectUserResource = defineResource({
  name: "object-user",
  aliases: ["object-users", "object-store-user", "object-store-users"],
  summary: "Object store users, who hold the S3 access keys",
  commands: [objectUserList],
});

export const virtualHostResource = defineResource({
  name: "virtual-host",
  aliases: ["virtual-hosts", "object-store-virtual-host", "object-store-virtual-hosts"],
  summary: "Host names for virtual-hosted style S3 bucket addressing",
  commands: [virtualHostList],
});
