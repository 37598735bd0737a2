/** Catalogue: Protection — the snapshots policies keep. (`snapshot` and `policy` are hand-written.) */
import type { NounSpec } from "./spec.js";

const POLICY_MEMBER = [
  { param: "policy_names", label: "policy" },
  { param: "member_names", label: "member" },
];

export const PROTECTION: readonly NounSpec[] = [
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
