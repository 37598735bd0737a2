/** Catalogue: Protection — snapshot policies and what they protect. (`snapshot` is hand-written.) */
import type { NounSpec } from "./spec.js";

const POLICY_MEMBER = [
  { param: "policy_names", label: "policy" },
  { param: "member_names", label: "member" },
];

export const PROTECTION: readonly NounSpec[] = [
  {
    noun: "policy",
    plural: "policies",
    aliases: ["policies"],
    area: "Protection",
    summary: "Snapshot policies: schedules and retention",
    path: "/policies",
    columns: ["name", "enabled", "rules", "location.name"],
    writable: ["enabled"],
    classes: { update: "remove_snapshot_rules" },
    examples: {
      list: "",
      show: "daily",
      create: "monthly",
      update: "monthly --no-enabled",
      delete: "monthly",
    },
  },
  {
    noun: "policy fs",
    area: "Protection",
    kind: "relation",
    summary: "File systems a snapshot policy protects",
    path: "/policies/file-systems",
    columns: ["policy.name", "member.name"],
    select: POLICY_MEMBER,
    examples: { list: "daily", add: "hourly media", remove: "hourly media" },
  },
  {
    noun: "policy member",
    area: "Protection",
    kind: "view",
    summary: "Every object a policy applies to, of any type",
    path: "/policies/members",
    columns: ["policy.name", "member.name", "member.resource_type"],
    select: [{ param: "policy_names", label: "policy" }],
    examples: { list: "daily" },
  },
  {
    noun: "policy snapshot",
    area: "Protection",
    kind: "relation",
    summary: "Snapshots a policy took and still keeps",
    path: "/policies/file-system-snapshots",
    columns: ["policy.name", "member.name"],
    select: POLICY_MEMBER,
    examples: { list: "daily", remove: "daily home.daily.7" },
  },
  {
    noun: "snapshot policy",
    area: "Protection",
    kind: "relation",
    summary: "The policy that took a snapshot",
    path: "/file-system-snapshots/policies",
    columns: ["member.name", "policy.name"],
    select: [
      { param: "member_names", label: "snapshot" },
      { param: "policy_names", label: "policy" },
    ],
    examples: { list: "", remove: "projects.daily.7 daily" },
  },
];
