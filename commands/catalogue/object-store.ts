/** Catalogue: Object store — buckets, accounts, users, access keys, access policies, virtual hosts, lifecycle rules. */
import { accessKeyDeleteCheck } from "../object-store/access-key.js";
import { accountDeleteCheck } from "../object-store/account.js";
import { BUCKET_LIFECYCLE } from "../object-store/bucket.js";
import { bucketUpdateCheck } from "../object-store/bucket-update.js";
import { userDeleteCheck } from "../object-store/user.js";
import { virtualHostAddCheck, virtualHostRemoveCheck } from "../object-store/virtual-host.js";
import type { NounSpec, QueryOption } from "./spec.js";

/** Refuse a rule whose actions and other elements the array would ignore together, instead of keeping it. */
const ENFORCE_ACTIONS: QueryOption = {
  param: "enforce_action_restrictions",
  help: "refuse rules whose actions and conditions the array would ignore together",
};

/** An access key is named by its id, as `access-key list` shows it. */
const ACCESS_KEY_ID = { what: "access key id", help: "the access key id (PSFB…)" };

export const OBJECT_STORE: readonly NounSpec[] = [
  {
    noun: "bucket",
    aliases: ["buckets"],
    area: "Object store",
    summary: "S3 buckets: account, versioning, space",
    path: "/buckets",
    columns: ["name", "account.name", "versioning", "object_count", "space.virtual", "created"],
    units: { "space.virtual": "size", created: "timestamp", time_remaining: "ms" },
    writable: ["versioning"],
    createOnly: ["account"],
    // DELETE /buckets eradicates a destroyed bucket: its objects are gone for good.
    lifecycle: BUCKET_LIFECYCLE,
    summaries: { update: "Turn a bucket's object versioning on or suspend it (REST 1.9+)" },
    // A bucket never returns to `none`.
    choices: { versioning: ["enabled", "suspended"] },
    precheck: { update: bucketUpdateCheck },
    valueWarnings: {
      versioning: {
        suspended: "Overwritten and deleted objects are no longer kept as previous versions.",
        enabled:
          "Previous versions now count against the bucket's space; a lifecycle rule limits how long they stay.",
      },
    },
    answers: { update: "Versioning of bucket {name} on {array} is now {versioning}." },
    examples: {
      list: "",
      show: "veeam-repo",
      create: "scratch-bucket --account analytics",
      update: "veeam-repo --versioning enabled",
    },
  },
  {
    noun: "object-account",
    area: "Object store",
    summary: "Object store accounts",
    path: "/object-store-accounts",
    columns: ["name", "object_count", "space.virtual", "created"],
    units: { "space.virtual": "size", created: "timestamp" },
    title: "object store account",
    nameKind: "account",
    refuseExisting: true,
    summaries: {
      create: "Create an object store account",
      delete:
        "Delete an object store account with its users and their access keys (it must hold no buckets); gated",
    },
    precheck: { delete: accountDeleteCheck },
    answers: {
      create:
        "Created object store account {name} on {array}. Add buckets with /array bucket create <name> --account {name}.",
    },
    // REST 2.8+ sets an account's quota (an admin's change, as the access policy has it); the array refuses an
    // enforced quota below what the account holds unless --ignore-usage says to set it anyway.
    rest2Methods: ["PATCH"],
    roles: { update: "admin" },
    writable: ["quota_limit", "hard_limit_enabled"],
    queryOptions: {
      update: [{ param: "ignore_usage", help: "set the quota even below what the account already holds" }],
    },
    examples: {
      list: "",
      show: "analytics",
      create: "media",
      delete: "archive",
      update: "analytics --quota-limit 1099511627776 --hard-limit-enabled --ignore-usage",
    },
  },
  {
    noun: "object-user",
    area: "Object store",
    summary: "Object store users (account/user)",
    path: "/object-store-users",
    columns: ["name", "account.name", "created"],
    units: { created: "timestamp" },
    title: "object store user",
    nameKind: "object-user",
    refuseExisting: true,
    summaries: {
      create: "Create an object store user in an account (then give it a key with access-key create)",
      delete: "Delete an object store user and its access keys; gated",
    },
    precheck: { delete: userDeleteCheck },
    answers: {
      create:
        "Created object store user {name} on {array}. Give it a key with /array access-key create {name}.",
    },
    examples: { list: "", show: "analytics/etl", create: "analytics/etl2", delete: "analytics/reader" },
  },
  {
    noun: "access-key",
    aliases: ["access-keys"],
    area: "Object store",
    summary: "S3 access keys of object store users (secrets are never shown here)",
    path: "/object-store-access-keys",
    columns: ["name", "user.name", "enabled", "created"],
    units: { created: "timestamp" },
    title: "access key",
    select: [{ param: "names", label: "key" }],
    createSelect: [],
    writable: ["enabled"],
    createOnly: ["user"],
    summaries: { delete: "Delete an access key for good (applications using it lose access); gated" },
    precheck: { delete: accessKeyDeleteCheck },
    // The secret is the array's to make (create) or comes from another array (import, hand-written).
    secrets: [],
    // Disabling a key that is enabled cuts off the applications signing with it; enabling one harms nothing.
    classFrom: {
      // The class `access-key disable` asks by, so both ways of disabling a key are held to one policy.
      update: {
        classes: ["disable_access_key"],
        of: (state) => (state["enabled"] === "true" ? "disable_access_key" : null),
      },
    },
    // Turning a key on or off: the reader's key is disabled in the demo, the ETL job's enabled.
    switches: [
      {
        verb: "enable",
        field: "enabled",
        value: true,
        summary: "Enable an access key again",
        example: "PSFBRHUMTPRUGIHTQJURARZSKEUIVGUERAJHKSCLMFSF",
        arg: ACCESS_KEY_ID,
        doing: "Enables access key {name} of {user.name}.",
        already: "Access key {name} is already enabled.",
        done: "Enabled access key {name} on {array}.",
      },
      {
        verb: "disable",
        field: "enabled",
        value: false,
        summary: "Disable an access key (applications using it lose access)",
        example: "PSFBQEHLWOYJJNHJPLMDHOBDGPJBYBCWEDTPTFRJYTGG",
        arg: ACCESS_KEY_ID,
        doing: "Disables access key {name} of {user.name}.",
        already: "Access key {name} is already disabled.",
        done: "Disabled access key {name} on {array}.",
        warning: "Applications signing requests with this key get Access Denied until it is enabled again.",
        // Disabling cuts off every application that signs with the key: it asks first (issue 43).
        cls: "disable_access_key",
      },
    ],
    examples: {
      list: "",
      show: "PSFBRHUMTPRUGIHTQJURARZSKEUIVGUERAJHKSCLMFSF",
      create: "--user backup/veeam",
      update: "PSFBRHUMTPRUGIHTQJURARZSKEUIVGUERAJHKSCLMFSF --enabled",
      // The ETL job's key: the reader's goes with its user in object-user delete's example.
      delete: "PSFBQEHLWOYJJNHJPLMDHOBDGPJBYBCWEDTPTFRJYTGG",
    },
  },
  {
    noun: "object-policy",
    area: "Object store",
    summary: "Object store access policies: the built-in ones, and an account's own from REST 2.2",
    path: "/object-store-access-policies",
    columns: ["name"],
    // REST 2.2+ keeps policies of an account (`account/policy`) beside the built-in ones: an admin adds, changes
    // and deletes them, as the access policy has it; their rules are `object-store-access-policy rule`'s.
    rest2Methods: ["POST", "PATCH", "DELETE"],
    roles: { create: "admin", update: "admin", delete: "admin" },
    queryOptions: {
      create: [ENFORCE_ACTIONS],
      update: [ENFORCE_ACTIONS],
    },
    summaries: {
      create:
        "Add an access policy to an object store account (its rules with object-store-access-policy rule)",
      update: "Check a policy against the array's action restrictions (--enforce-action-restrictions)",
      delete:
        "Delete an account's access policy (not a built-in one, nor one still attached to users); gated",
    },
    // The list example keeps to the built-in policies every array has; on 2.x an account's own list beside them.
    examples: {
      list: "--name pure:policy/*",
      show: "pure:policy/full-access",
      create: "analytics/etl-write --description ETL-writes",
      update: "analytics/etl-read --enforce-action-restrictions",
      delete: "analytics/etl-read",
    },
  },
  {
    noun: "object-policy user",
    area: "Object store",
    kind: "relation",
    summary: "Object store users an access policy applies to",
    path: "/object-store-access-policies/object-store-users",
    columns: ["policy.name", "member.name"],
    select: [
      { param: "policy_names", label: "policy" },
      { param: "member_names", label: "user" },
    ],
    examples: {
      list: "",
      add: "pure:policy/object-read analytics/etl",
      remove: "pure:policy/full-access analytics/etl",
    },
  },
  {
    noun: "object-user policy",
    area: "Object store",
    kind: "relation",
    summary: "Access policies of an object store user",
    path: "/object-store-users/object-store-access-policies",
    columns: ["member.name", "policy.name"],
    select: [
      { param: "member_names", label: "user" },
      { param: "policy_names", label: "policy" },
    ],
    examples: {
      list: "",
      add: "backup/veeam pure:policy/object-list",
      remove: "analytics/reader pure:policy/object-read",
    },
  },
  {
    noun: "virtual-host",
    area: "Object store",
    summary: "Host names for virtual-hosted-style S3 requests",
    path: "/object-store-virtual-hosts",
    columns: ["name"],
    title: "virtual host",
    select: [{ param: "names", label: "host" }],
    values: { name: "host" },
    // Adding and removing a host name changes how every S3 client may address buckets: an admin's call.
    verbs: { create: "add", delete: "remove" },
    roles: { create: "admin", update: "admin", delete: "admin" },
    refuseExisting: true,
    summaries: {
      create: "Let S3 clients address buckets as <bucket>.<host>",
      delete: "Stop answering S3 requests under a virtual host name; gated",
    },
    precheck: { create: virtualHostAddCheck, delete: virtualHostRemoveCheck },
    answers: { delete: "Removed virtual host {name} from {array}." },
    // REST 2.20+ changes a virtual host's host name and the servers it is attached to: an admin's call, as adding.
    rest2Methods: ["PATCH"],
    examples: {
      list: "",
      show: "s3.example.com",
      create: "s3.lab.example.com",
      delete: "s3.example.com",
      update: "s3.example.com --hostname s3.example.net",
    },
  },
  {
    noun: "lifecycle-rule",
    area: "Object store",
    summary: "Bucket lifecycle rules: how long old versions are kept",
    path: "/lifecycle-rules",
    columns: ["name", "bucket.name", "rule_id", "prefix", "keep_previous_version_for", "enabled"],
    units: { keep_previous_version_for: "ms" },
    createSelect: [],
    writable: ["enabled", "keep_previous_version_for", "prefix"],
    createOnly: ["bucket", "rule_id"],
    examples: {
      list: "",
      show: "analytics-raw/expire-old-versions",
      create: "--bucket veeam-repo --rule-id expire-old --keep-previous-version-for 30d",
      update: "veeam-repo/expire-old --keep-previous-version-for 60d",
      delete: "veeam-repo/expire-old",
    },
  },
];
