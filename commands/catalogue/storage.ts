/**
 * Catalogue: Storage — file system policy membership. (`fs`, `quota` and `usage` are hand-written; quotas,
 * their settings and usage are theirs.)
 */
import type { NounSpec } from "./spec.js";

export const STORAGE: readonly NounSpec[] = [
  {
    noun: "fs policy",
    area: "Storage",
    kind: "relation",
    summary: "Which snapshot policies protect a file system",
    path: "/file-systems/policies",
    columns: ["member.name", "policy.name"],
    select: [
      { param: "member_names", label: "file-system" },
      { param: "policy_names", label: "policy" },
    ],
    examples: { list: "home", add: "scratch hourly", remove: "builds hourly" },
  },
];
