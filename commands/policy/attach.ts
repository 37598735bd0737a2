/**
 * policy attach|detach <policy> <fs> [--remote <array>]: a policy on file systems, or (with --remote) on the
 * replica link of a file system to that array (REST 1.9+). Detaching says when it leaves a file system with no
 * protection at all. Hand-written because one verb serves two member endpoints (file systems, or replica links
 * with --remote), takes several file systems at once, and detach reads what else protects each of them.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { type Rich, rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { UserFacingError } from "../../src/errors.js";
import { requireApi } from "../../src/flashblade/wire.js";
import { fileSystemList } from "../quota/kinds.js";
import { done } from "../shared/done.js";
import { requireLiveFileSystem } from "../shared/file-system-facts.js";
import { planned } from "../shared/plan.js";
import { onlyProtectedBy, policyFacts } from "./read.js";

const args = z.object({
  policy: objectName("policy name").describe("the policy"),
  fs: fileSystemList().describe(
    "file systems, comma separated (with --remote: the link's local file system)",
  ),
  remote: objectName("array name")
    .optional()
    .describe("the replica link of the file system to this remote array"),
});
type Args = z.output<typeof args>;

async function prepare(a: Args, ctx: CommandContext, attach: boolean) {
  const f = await policyFacts(ctx, a.policy);
  for (const fs of a.fs) await requireLiveFileSystem(ctx, fs);
  if (a.remote !== undefined) {
    if (a.fs.length !== 1)
      throw new UserFacingError(
        "INVALID_ARGUMENTS",
        "With --remote, name one file system: the local end of the replica link.",
      );
    const fs = a.fs[0] as string;
    await requireApi(ctx, "1.9", "The replica link API");
    const links = await ctx.array.replicaLinks.forFileSystem(fs);
    if (!links.some((l) => l.remote?.name === a.remote)) {
      const there = links.map((l) => l.remote?.name ?? "?").join(", ");
      throw new UserFacingError(
        "NOT_FOUND",
        `${fs} has no replica link to ${a.remote}${there ? ` (its links go to ${there})` : " (it has no replica links)"}.`,
      );
    }
    const member = f.links.some((l) => l.fs === fs && l.remote === a.remote);
    if (attach === member) {
      throw new UserFacingError(
        attach ? "ALREADY_MEMBER" : "NOT_MEMBER",
        `Policy ${a.policy} is ${attach ? "already" : "not"} on the replica link ${fs} → ${a.remote}. Nothing was changed.`,
      );
    }
    const sel = { policy_names: [a.policy], local_file_system_names: [fs], remote_names: [a.remote] };
    return {
      f,
      what: `replica link ${fs} → ${a.remote}`,
      request: planned(attach ? "POST" : "DELETE", "/policies/file-system-replica-links", sel),
    };
  }
  const clash = a.fs.filter((fs) => f.fileSystems.includes(fs) === attach);
  if (clash.length) {
    throw new UserFacingError(
      attach ? "ALREADY_MEMBER" : "NOT_MEMBER",
      `Policy ${a.policy} ${attach ? "already protects" : "does not protect"} ${clash.join(", ")}. Nothing was changed.`,
    );
  }
  const sel = { policy_names: [a.policy], member_names: a.fs };
  return {
    f,
    what: a.fs.join(", "),
    request: planned(attach ? "POST" : "DELETE", "/policies/file-systems", sel),
  };
}

export const policyAttach = defineCommand({
  verb: "attach",
  summary: "Protect file systems (or a replica link, with --remote) with a snapshot policy",
  examples: [
    "policy attach daily scratch",
    "policy attach daily logs,media",
    "policy attach daily builds --remote fb-dr-01",
  ],
  role: "operator",
  endpoints: ["POST /policies/file-system-replica-links", "POST /policies/file-systems"],
  visibility: "in_channel",
  positional: ["policy", "fs"],
  args,
  async impact(a, ctx): Promise<Impact> {
    const { f, what, request } = await prepare(a, ctx, true);
    return {
      target: `policy ${a.policy} on ${what}`,
      summary: rich`Attaches policy *${a.policy}* to ${what} on ${ctx.arrayName}.`,
      facts: [],
      warnings:
        f.policy.enabled === false ? [rich`${a.policy} is paused: it takes no snapshots until resumed.`] : [],
      state: { members: f.fileSystems.join(",") || null, links: f.links.length },
      requests: [request],
    };
  },
  result(_responses, a, _ctx, impact) {
    return { policy: a.policy, what: impact?.target ?? "" };
  },
  render: (r, _a, rctx) => attached(`Attached policy ${r.policy} to`, r.policy, r.what, rctx.arrays[0]),
});

export const policyDetach = defineCommand({
  verb: "detach",
  summary: "Stop protecting file systems (or a replica link, with --remote) with a snapshot policy",
  examples: ["policy detach daily finance", "policy detach daily home --remote fb-dr-01"],
  role: "operator",
  endpoints: ["DELETE /policies/file-system-replica-links", "DELETE /policies/file-systems"],
  visibility: "in_channel",
  positional: ["policy", "fs"],
  args,
  async impact(a, ctx): Promise<Impact> {
    const { f, what, request } = await prepare(a, ctx, false);
    const warnings: Rich[] = [];
    if (a.remote === undefined) {
      const bare = await onlyProtectedBy(ctx, a.fs, a.policy);
      if (bare.length)
        warnings.push(rich`${bare.join(", ")} will have no snapshot policy and no replica link left.`);
    }
    return {
      target: `policy ${a.policy} on ${what}`,
      summary: rich`Detaches policy *${a.policy}* from ${what} on ${ctx.arrayName}; the policy takes no new snapshots of it.`,
      facts: [],
      warnings,
      state: { members: f.fileSystems.join(",") || null, links: f.links.length },
      requests: [request],
    };
  },
  async result(_responses, a, ctx, impact) {
    const bare = a.remote === undefined ? await onlyProtectedBy(ctx, a.fs, "") : [];
    return { policy: a.policy, what: impact?.target ?? "", bare };
  },
  render(r, _a, rctx) {
    const msg = attached(`Detached policy ${r.policy} from`, r.policy, r.what, rctx.arrays[0]);
    if (r.bare.length) {
      msg.blocks.push({
        type: "context",
        text: rich`⚠ ${r.bare.join(", ")} now ${r.bare.length === 1 ? "has" : "have"} no snapshot policy and no replica link.`,
      });
    }
    return msg;
  },
});

function attached(lead: string, policy: string, target: string, array: string | undefined) {
  const text = `${lead} ${target.replace(`policy ${policy} on `, "")} on ${array ?? "?"}.`;
  return done(text, rich`${text} See \`/array policy members ${policy}\`.`);
}
