/** Catalogue: Storage — quotas, their settings, file system policy membership. (`fs` is hand-written.) */
import type { NounSpec } from "./spec.js";

const FS_USER = [
  { param: "file_system_names", label: "file-system" },
  { param: "user_names", label: "user", field: "user.name" },
];
const FS_GROUP = [
  { param: "file_system_names", label: "file-system" },
  { param: "group_names", label: "group", field: "group.name" },
];

export const STORAGE: readonly NounSpec[] = [
  {
    noun: "quota user",
    aliases: ["user-quota"],
    area: "Storage",
    summary: "Per-user quotas on a file system",
    path: "/quotas/users",
    columns: ["file_system.name", "user.name", "user.id", "quota", "usage"],
    select: FS_USER,
    units: { quota: "size", usage: "size", file_system_default_quota: "size" },
    writable: ["quota"],
    examples: {
      list: "home",
      show: "home alice",
      create: "home frank --quota 20G",
      update: "home frank --quota 30G",
      delete: "home frank",
    },
  },
  {
    noun: "quota group",
    aliases: ["group-quota"],
    area: "Storage",
    summary: "Per-group quotas on a file system",
    path: "/quotas/groups",
    columns: ["file_system.name", "group.name", "group.id", "quota", "usage"],
    select: FS_GROUP,
    units: { quota: "size", usage: "size", file_system_default_quota: "size" },
    writable: ["quota"],
    examples: {
      list: "projects",
      show: "projects engineering",
      create: "home ops --quota 1T",
      update: "home ops --quota 2T",
      delete: "home ops",
    },
  },
  {
    noun: "quota settings",
    area: "Storage",
    kind: "singleton",
    summary: "Who is told when quotas are exceeded",
    path: "/quotas/settings",
    columns: ["contact", "direct_notifications_enabled"],
    examples: { set: "--contact storage-oncall@example.com" },
  },
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
    examples: { list: "home", add: "scratch hourly", remove: "scratch hourly" },
  },
];
