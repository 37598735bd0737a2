/**
 * `fs update`: hand-written, not catalogue data, because its settings (update-settings.ts) are switches over
 * nested, version-renamed protocol fields, a destroyed file system is refused, and demoting needs a replica link
 * and the discard acknowledgement in the query.
 */
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { type Field, rich } from "../../src/core/presentation/message.js";
import { formatBytes } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { promotionOf } from "../../src/flashblade/index.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import type { FileSystem, FileSystemPatch, FileSystemReplicaLink } from "../../src/flashblade/types.js";
import { fileSystemPolicies } from "../policy/read.js";
import { done } from "../shared/done.js";
import {
  fingerprintState,
  linksText,
  protocolsOf,
  requireLiveFileSystem,
  usedBytes,
} from "../shared/file-system-facts.js";
import { itemsOf, onlyItem } from "../shared/plan.js";
import { type PolicyMembership, policyMembership } from "./policy-member.js";
import { type Args, args, diff, intended, PROTOCOL_SWITCHES } from "./update-settings.js";

/** "NFS: on → off" from the state read back; a setting the array did not take says so. */
export function appliedLine(c: { label: string; before: string; after: string; wanted: string }): string {
  if (c.after === c.wanted) return `${c.label}: ${c.before} → ${c.after}`;
  return `${c.label}: still ${c.after} (asked for ${c.wanted}; the array did not apply it)`;
}

/** Turning the hard limit on while usage already exceeds the size: the array needs ignore_usage. */
function limitOverUsage(fs: FileSystem, patch: FileSystemPatch): boolean {
  const prov = fs.provisioned ?? 0;
  return patch.hard_limit_enabled === true && prov > 0 && usedBytes(fs) > prov;
}

const stateKey = (label: string) => label.toLowerCase().replace(/[^a-z0-9]+/g, "_");

/** Demoting a promoted file system (the only promotion change that loses data). */
const demotes = (fs: FileSystem, patch: FileSystemPatch) =>
  patch.requested_promotion_state === "demoted" && promotionOf(fs) !== "demoted";

/** Demotion is for a replica link's file system: refused up front, before anything is sent, without one. */
async function requireReplicaLink(ctx: CommandContext, name: string): Promise<FileSystemReplicaLink[]> {
  const links = await ctx.array.replicaLinks.forFileSystem(name);
  if (links.length === 0) {
    throw new UserFacingError(
      "FS_NO_REPLICA_LINK",
      `${name} has no replica link, so it cannot be demoted: only a file system in a replica-link relationship can be (demoting makes it a replication target). Nothing was sent.`,
    );
  }
  return links;
}

/**
 * `--policy`: the file system's policies now, and the membership to add when it is not among them yet (an
 * attached one asks for nothing, like a setting that already has the asked value).
 */
async function policyAsked(
  ctx: CommandContext,
  a: Args,
): Promise<{ current: string[]; add?: PolicyMembership } | undefined> {
  if (a.policy === undefined) return undefined;
  const current = (await fileSystemPolicies(ctx, a.name)) ?? [];
  if (current.includes(a.policy)) return { current };
  return { current, add: await policyMembership(ctx, a.policy, a.name) };
}

const policiesText = (names: readonly string[]) => (names.length > 0 ? names.join(", ") : "none");

export const fsUpdate = defineCommand({
  verb: "update",
  summary:
    "Change protocols (NFSv3/v4.1, export rules, SMB, HTTP), hard limit, default quotas, snapshot policy, promotion",
  examples: [
    "fs update logs --smb --no-http",
    "fs update projects --no-nfs-v3 --nfs-v4",
    'fs update projects --nfs-rules "10.21.0.0/16(rw,no_root_squash) 10.30.0.0/16(ro)"',
    "fs update media --smb-acl-mode shared",
    "fs update home --hard-limit",
    "fs update home --default-user-quota 100G",
    'fs update scratch --policy daily --nfs-rules "10.0.0.0/8(rw)"',
    "fs update home --promotion demoted",
  ],
  role: "operator",
  endpoints: ["PATCH /file-systems", "POST /policies/file-systems {existing file system}"],
  visibility: "in_channel",
  positional: ["name"],
  args,
  async impact(a, ctx): Promise<Impact> {
    const fs = await requireLiveFileSystem(ctx, a.name);
    const { patch, changes } = diff(fs, a);
    const policy = await policyAsked(ctx, a);
    if (changes.length === 0 && !policy?.add && !ctx.recheck) {
      const attached = policy ? ` (policy ${a.policy} already protects it)` : "";
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change on ${a.name}${attached}: give at least one setting that differs (e.g. --nfs, --no-smb, --hard-limit, --policy).`,
      );
    }
    const over = limitOverUsage(fs, patch);
    const demote = demotes(fs, patch);
    // Planned first: a setting this array's version lacks is refused here, before any other check or send.
    const requests =
      changes.length > 0
        ? [
            await ctx.array.fileSystems.planUpdate(a.name, patch, {
              ignoreUsage: over,
              discardNonSnapshottedData: demote,
            }),
          ]
        : [];
    // The policy's membership goes after the file system's own settings, as `fs create` attaches it.
    if (policy?.add) requests.push(policy.add.request);
    const links = demote ? await requireReplicaLink(ctx, a.name) : [];
    const facts: Field[] = changes.map((c) => ({
      label: c.setting.label,
      value: rich`${c.setting.show(c.setting.read(fs))} → ${c.setting.show(c.want)}`,
    }));
    if (policy?.add) {
      const after = [...policy.current, a.policy ?? ""];
      facts.push({
        label: "Snapshot policies",
        value: rich`${policiesText(policy.current)} → ${policiesText(after)}`,
      });
    }
    const warnings = [...(policy?.add?.warnings ?? [])];
    if (demote) {
      facts.push({ label: "Replica links", value: rich`${linksText(links)}` });
      warnings.push(
        rich`Demoting ${a.name} rolls it back to the last snapshot it shares with its replica link: everything written since is discarded (discard_non_snapshotted_data=true). It then turns read-only, a replication target, until promoted again.`,
      );
    }
    if (over) {
      warnings.push(
        rich`${a.name} holds ${formatBytes(usedBytes(fs))}, more than its ${formatBytes(fs.provisioned ?? 0)} size; with the hard limit on, every write will fail until usage drops below the size.`,
      );
    }
    const turnedOff = changes.filter((c) => PROTOCOL_SWITCHES.has(c.setting.key) && c.want === false);
    if (turnedOff.length > 0) {
      warnings.push(
        rich`Clients using ${turnedOff.map((c) => c.setting.label).join(" or ")} lose access to ${a.name} at once.`,
      );
    }
    // Export rules decide which NFS clients may mount. Whether new rules are narrower cannot be told from the
    // text (hosts, netgroups, subnets, options and their order all count), so any change on a file system that
    // serves NFS is treated like turning NFS off for someone: the disable_protocol class. With NFS off, no
    // client is connected and the change is an ordinary update.
    const rulesOnServing = patch.nfs?.rules !== undefined && protocolsOf(fs).includes("NFS");
    if (rulesOnServing) {
      warnings.push(rich`NFS clients the new export rules no longer match lose access to ${a.name} at once.`);
    }
    return {
      target: `file system ${a.name}`,
      summary: rich`Updates *${a.name}* on ${ctx.arrayName}: ${[
        ...changes.map((c) => intended(c, fs)),
        ...(policy?.add ? [`protected by policy ${a.policy}`] : []),
      ].join("; ")}.`,
      facts,
      warnings,
      state: {
        // The value each asked setting had, keyed by its label ("nfs export rules: … → …" if it changes before
        // the approval lands, which voids it); the shared fingerprint's own keys win where they overlap.
        ...Object.fromEntries(
          changes.map((c) => [stateKey(c.setting.label), c.setting.show(c.setting.read(fs))]),
        ),
        ...fingerprintState(fs),
        // Another policy attached or detached meanwhile voids it, as a changed setting does.
        ...(policy ? { snapshot_policies: policy.current.join(",") } : {}),
        ...(patch.hard_limit_enabled === true ? { used_over_size: over } : {}),
        ...(turnedOff.length > 0 || rulesOnServing ? { turns_protocol_off: true } : {}),
        ...(demote ? { demotes: true, replica_links: links.length } : {}),
      },
      requests,
      read: fs,
    };
  },
  destructive(_a, impact) {
    // The gravest class decides: lost data, then writes failing at once, then clients cut off.
    if (impact.state["demotes"] === true) return "demote_file_system";
    if (impact.state["used_over_size"] === true) return "shrink_below_usage";
    return impact.state["turns_protocol_off"] === true ? "disable_protocol" : null;
  },
  gateClasses: ["demote_file_system", "shrink_below_usage", "disable_protocol"],
  result(responses, a, ctx, impact) {
    const before = impact.read as FileSystem;
    const { changes } = diff(before, a);
    // Reported from what the array returned, so a setting it did not take is not announced as done.
    const after =
      changes.length > 0
        ? onlyItem(ctx, "/file-systems", itemsOf(ctx, responses, fileSystemSchema, 0))
        : before;
    const lines = changes.map((c) =>
      appliedLine({
        label: c.setting.label,
        before: c.setting.show(c.setting.read(before)),
        after: c.setting.show(c.setting.read(after)),
        wanted: c.setting.show(c.want),
      }),
    );
    // The membership request answered (the pipeline stops at a refused one): the policy is on.
    if (impact.requests.some((r) => r.path.endsWith("/policies/file-systems")))
      lines.push(`snapshot policy ${a.policy} attached`);
    return { name: after.name, lines };
  },
  render({ name, lines }, _a, rctx) {
    const text = lines.join("; ");
    const on = rctx.arrays[0] ?? "?";
    return done(`Updated ${name} on ${on}: ${text}.`, rich`Updated *${name}* on ${on}: ${text}.`);
  },
});
