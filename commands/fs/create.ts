/**
 * `fs create <name> <size> [--nfs --smb --http --hard-limit --nfs-rules <rules> --policy <policy>]`:
 * hand-written, not catalogue data, because its switches turn on nested protocol objects (`nfs.enabled`…) whose
 * names the client maps per REST version, a name taken by a destroyed file system is refused with its way back
 * (`fs recover`) rather than the array's 400, and a snapshot policy is attached by a second request once the
 * file system exists (the form's policy menu lists the array's policies).
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { flag, objectName, size } from "../../src/core/words/arg-types.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import type { FileSystemCreate } from "../../src/flashblade/types.js";
import { done } from "../shared/done.js";
import { protocolsOf, sizeText } from "../shared/file-system-facts.js";
import { itemsOf, onlyItem } from "../shared/plan.js";
import { policyArg, policyMembership } from "./policy-member.js";
import { exportRules } from "./update-settings.js";

const args = z.object({
  name: objectName("file system name", "file-system").describe("name of the new file system"),
  size: size({ min: 1 }).describe("provisioned size, e.g. 500G or 2T (binary units)"),
  nfs: flag().describe("enable NFS"),
  smb: flag().describe("enable SMB"),
  http: flag().describe("enable HTTP"),
  hardLimit: flag().describe("cap usage at the provisioned size"),
  nfsRules: exportRules.optional().describe('NFS export rules, e.g. "10.0.0.0/8(rw) *(ro)" (turns NFS on)'),
  policy: policyArg,
});

function bodyOf(a: z.output<typeof args>): FileSystemCreate {
  return {
    name: a.name,
    provisioned: a.size,
    ...(a.hardLimit ? { hard_limit_enabled: true } : {}),
    ...(a.nfs || a.nfsRules ? { nfs: { enabled: true, ...(a.nfsRules ? { rules: a.nfsRules } : {}) } } : {}),
    ...(a.smb ? { smb: { enabled: true } } : {}),
    ...(a.http ? { http: { enabled: true } } : {}),
  };
}

function protocols(a: z.output<typeof args>): string {
  return (
    [(a.nfs || a.nfsRules) && "NFS", a.smb && "SMB", a.http && "HTTP"].filter(Boolean).join(", ") ||
    "no protocols"
  );
}

export const fsCreate = defineCommand({
  verb: "create",
  summary: "Create a file system",
  examples: [
    "fs create research 2T --nfs",
    "fs create scratch2 500G --nfs --smb --hard-limit",
    'fs create builds2 1T --nfs-rules "10.0.0.0/8(rw) *(ro)" --policy daily',
  ],
  role: "operator",
  // The policy of a new file system, attached right after it is made (policy attach for existing ones).
  endpoints: ["POST /file-systems", "POST /policies/file-systems {new file system}"],
  visibility: "in_channel",
  positional: ["name", "size"],
  args,
  async impact(a, ctx) {
    const existing = await ctx.array.fileSystems.get(a.name);
    if (existing) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `A file system named "${a.name}" already exists on ${ctx.arrayName}${existing.destroyed ? " (destroyed; recover it with /array fs recover)" : ""}.`,
      );
    }
    // The policy must exist before the card is shown: it is attached once the file system is made.
    const policy = a.policy === undefined ? undefined : await policyMembership(ctx, a.policy, a.name);
    return {
      target: `file system ${a.name}`,
      summary: rich`Creates file system *${a.name}* on ${ctx.arrayName}: ${sizeText(a.size)}, ${protocols(a)}${a.hardLimit ? ", hard limit on" : ""}${a.policy ? `, protected by policy ${a.policy}` : ""}.`,
      facts: a.nfsRules ? [{ label: "Export rules", value: rich`${a.nfsRules}` }] : [],
      warnings: policy?.warnings ?? [],
      state: { exists: false },
      requests: [await ctx.array.fileSystems.planCreate(bodyOf(a)), ...(policy ? [policy.request] : [])],
    };
  },
  result(responses, a, ctx, _impact) {
    const fs = onlyItem(ctx, "/file-systems", itemsOf(ctx, responses, fileSystemSchema, 0));
    return a.policy ? { ...fs, policyAttached: a.policy } : fs;
  },
  render(fs, _a, rctx) {
    // From the file system the array returned, like every other setting shown here.
    const served = protocolsOf(fs).join(", ") || "no protocols";
    const policy = "policyAttached" in fs ? `, protected by policy ${String(fs.policyAttached)}` : "";
    const what = `${sizeText(fs.provisioned)}, ${served}${fs.hard_limit_enabled ? ", hard limit on" : ""}${policy}`;
    const array = rctx.arrays[0] ?? "?";
    return done(
      `Created file system ${fs.name} on ${array}: ${what}.`,
      rich`Created file system *${fs.name}* on ${array}: ${what}.`,
    );
  },
});
