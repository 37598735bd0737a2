/**
 * `/array space trash`: everything destroyed but not yet eradicated (file systems, snapshots, buckets), what
 * each still holds, when the array eradicates it on its own, and how much eradicating all of it would free.
 * Each object gets a Recover button and an Eradicate button; Eradicate opens the same approval gate as
 * `/array fs eradicate` (or `snapshot eradicate`). Hand-written because it gathers destroyed objects of three
 * kinds into one list with buttons, and names who destroyed each from the array's audit log and the bot's
 * own records.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type FollowUp } from "../src/core/catalogue/define-command.js";
import { formatRelative } from "../src/core/presentation/format-time.js";
import { type Block, message, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { countOf, formatBytes, formatCount, formatDuration } from "../src/core/words/units.js";
import { eq } from "../src/flashblade/filter.js";
import { bucketSchema, fileSystemSchema, snapshotSchema } from "../src/flashblade/schemas.js";
import { destroyedByPolicyChange, destroyedThroughBot, newerOf } from "./shared/destroyed-by.js";

type Kind = "file system" | "snapshot" | "bucket";

export interface TrashItem {
  array: string;
  kind: Kind;
  name: string;
  /** Physical bytes freed by eradicating it; undefined when REST 1.x does not say (snapshots). */
  physical?: number;
  logical?: number;
  /** What it is besides its size: source file system, object count, account. */
  detail: string;
  timeRemaining?: number;
  /**
   * Who destroyed it and when: the chat person when it went through the bot (its kept records), else the array's
   * audit log (REST 1.9+), when it still holds the entry.
   */
  destroyedBy?: { user: string; at: number; viaBot?: boolean };
  /** The policy that made a snapshot: a change to it through the bot may have destroyed the snapshot. */
  policy?: string;
}

export interface TrashResult {
  items: TrashItem[];
  arrays: string[];
}

/** Objects with buttons; more would make the message unwieldy (and Slack caps actions per message). */
const MAX_BUTTON_ITEMS = 12;

const COMMANDS: Record<Kind, { recover: string; eradicate: string } | undefined> = {
  "file system": { recover: "fs.recover", eradicate: "fs.eradicate" },
  snapshot: { recover: "snapshot.recover", eradicate: "snapshot.eradicate" },
  bucket: undefined,
};

/** The resource whose `destroy` verb destroys each kind, as the bot's records name it. */
const RESOURCE: Record<Kind, string> = { "file system": "fs", snapshot: "snapshot", bucket: "bucket" };

/** The chat people behind destroys that went through the bot, where the array's log names only its API user. */
async function attachChatDestroyers(ctx: CommandContext, items: TrashItem[]): Promise<void> {
  for (const kind of Object.keys(RESOURCE) as Kind[]) {
    const mine = items.filter((i) => i.kind === kind);
    if (mine.length === 0) continue;
    const chat = await destroyedThroughBot(
      ctx,
      RESOURCE[kind],
      mine.map((i) => i.name),
    );
    // A snapshot no destroy of its own names may have gone with a rule of its policy (issue 43: "Destroyed by: –").
    const byPolicy =
      kind === "snapshot"
        ? await destroyedByPolicyChange(
            ctx,
            mine.flatMap((i) => (i.policy && !chat.has(i.name) ? [i.policy] : [])),
          )
        : undefined;
    for (const item of mine) {
      const mark = chat.get(item.name) ?? (item.policy ? byPolicy?.get(item.policy) : undefined);
      const by = newerOf(mark, item.destroyedBy);
      if (by) item.destroyedBy = by;
    }
  }
}

const AUDIT_COMMAND: Record<Kind, string> = {
  "file system": "file-systems",
  snapshot: "file-system-snapshots",
  bucket: "buckets",
};

/** The names an audit entry's arguments select ("name=a", "names=a,b"). */
function namesIn(args: string): string[] {
  return args
    .split(/\s+/)
    .filter((t) => t.startsWith("name=") || t.startsWith("names="))
    .flatMap((t) => t.slice(t.indexOf("=") + 1).split(","));
}

/** The newest audit entry that destroyed each item: an `update` of its collection, naming it, destroyed=true. */
async function attachDestroyers(ctx: CommandContext, items: TrashItem[]): Promise<void> {
  if (items.length === 0 || !(await ctx.array.supports("1.9"))) return;
  const page = await ctx.array
    .get<Record<string, unknown>>("/audits", { query: { sort: "time-", limit: 1000 } })
    .catch(() => undefined);
  for (const item of items) {
    const hit = page?.items.find((a) => {
      const args = typeof a["arguments"] === "string" ? a["arguments"] : "";
      return (
        a["command"] === AUDIT_COMMAND[item.kind] &&
        a["subcommand"] === "update" &&
        /"destroyed":\s*true/.test(args) &&
        namesIn(args).includes(item.name)
      );
    });
    if (hit && typeof hit["user"] === "string" && typeof hit["time"] === "number")
      item.destroyedBy = { user: hit["user"], at: hit["time"] };
  }
}

export const spaceTrash = defineCommand({
  verb: "trash",
  summary:
    "Destroyed file systems, snapshots and buckets: what they hold, when they go, Recover or Eradicate",
  examples: ["space trash", "space trash --array all"],
  role: "viewer",
  endpoints: ["GET /audits", "GET /buckets", "GET /file-system-snapshots", "GET /file-systems"],
  args: z.object({}),
  async run(_args, ctx): Promise<TrashResult> {
    const items: TrashItem[] = [];
    if (!(await ctx.array.supports("1.1"))) return { items, arrays: [ctx.arrayName] };
    const query = { filter: eq("destroyed", true) };
    const opt = (n: number | null | undefined) => (typeof n === "number" ? n : undefined);
    const base = (kind: Kind, name: string, t: number | null | undefined): TrashItem => {
      const left = opt(t);
      return {
        array: ctx.arrayName,
        kind,
        name,
        detail: "",
        ...(left === undefined ? {} : { timeRemaining: left }),
      };
    };
    for await (const fs of ctx.array.iterate("/file-systems", { query, schema: fileSystemSchema })) {
      const physical = fs.space?.total_physical ?? 0;
      items.push({
        ...base("file system", fs.name, fs.time_remaining),
        physical,
        ...(fs.space?.virtual === undefined ? {} : { logical: fs.space.virtual }),
        detail: fs.space?.snapshots ? `of which snapshots ${formatBytes(fs.space.snapshots)}` : "",
      });
    }
    for await (const s of ctx.array.iterate("/file-system-snapshots", { query, schema: snapshotSchema })) {
      items.push({
        ...base("snapshot", s.name, s.time_remaining),
        detail: `of ${s.source ?? "?"}${s.owner_destroyed || s.source_destroyed ? " (destroyed with it)" : ""}`,
        ...(s.policy?.name ? { policy: s.policy.name } : {}),
      });
    }
    if (await ctx.array.supports("1.8")) {
      for await (const b of ctx.array.iterate("/buckets", { query, schema: bucketSchema })) {
        items.push({
          ...base("bucket", b.name, b.time_remaining),
          physical: b.space?.total_physical ?? 0,
          ...(b.space?.virtual === undefined ? {} : { logical: b.space.virtual }),
          detail: `${b.object_count === undefined ? "" : `${formatCount(b.object_count)} objects`}${b.account?.name ? ` in account ${b.account.name}` : ""}`,
        });
      }
    }
    await attachDestroyers(ctx, items);
    await attachChatDestroyers(ctx, items);
    items.sort(
      (a, b) => (a.timeRemaining ?? Number.MAX_SAFE_INTEGER) - (b.timeRemaining ?? Number.MAX_SAFE_INTEGER),
    );
    return { items, arrays: [ctx.arrayName] };
  },
  merge(results) {
    return { items: results.flatMap((r) => r.result.items), arrays: results.map((r) => r.array) };
  },
  followUp(result) {
    if (result.arrays.length !== 1) return undefined;
    const offers: FollowUp[] = [];
    // Snapshots that go with their destroyed file system are recovered or eradicated with it.
    const own = result.items.filter((i) => COMMANDS[i.kind] && !i.detail.includes("destroyed with it"));
    for (const item of own.slice(0, MAX_BUTTON_ITEMS)) {
      const cmds = COMMANDS[item.kind];
      if (!cmds) continue;
      const validForMs = item.timeRemaining ?? 24 * 3_600_000;
      offers.push({
        label: `Recover ${item.name}`,
        commandId: cmds.recover,
        args: { name: item.name },
        validForMs,
      });
      offers.push({
        label: `Eradicate ${item.name}`,
        commandId: cmds.eradicate,
        args: { name: item.name },
        validForMs,
        style: "danger",
      });
    }
    return offers;
  },
  render(result, _args, rctx) {
    const where =
      result.arrays.length > 1 ? `${result.arrays.length} arrays` : `array ${result.arrays[0] ?? "?"}`;
    const headline = `Destroyed objects on ${where}`;
    if (result.items.length === 0) {
      return message(`${headline}: none`, [
        { type: "header", text: headline },
        { type: "section", text: rich`Nothing is waiting for eradication on ${where}.` },
      ]);
    }
    const total = result.items.reduce((a, i) => a + (i.physical ?? 0), 0);
    const multi = result.arrays.length > 1;
    const rows = result.items.map((i) => ({
      array: i.array,
      kind: i.kind,
      name: i.name,
      holds: i.physical === undefined ? "not reported" : formatBytes(i.physical),
      logical: i.logical === undefined ? "–" : formatBytes(i.logical),
      detail: i.detail || "–",
      left: i.timeRemaining === undefined ? "–" : formatDuration(i.timeRemaining),
      by: i.destroyedBy
        ? `${i.destroyedBy.user}${i.destroyedBy.viaBot ? " (via the bot)" : ""}, ${formatRelative(i.destroyedBy.at, rctx.now)}`
        : "–",
    }));
    const table = truncatedTable(
      [
        ...(multi ? [{ key: "array", label: "Array" }] : []),
        { key: "kind", label: "Kind" },
        { key: "name", label: "Name" },
        { key: "holds", label: "Holds", align: "right" as const },
        { key: "logical", label: "Logical", align: "right" as const },
        { key: "detail", label: "Detail" },
        { key: "by", label: "Destroyed by" },
        { key: "left", label: "Eradicated in", align: "right" as const },
      ],
      rows,
      { limit: rctx.tableRows, filename: "trash.csv", title: headline },
    );
    const counts = (["file system", "snapshot", "bucket"] as const)
      .map((k) => [k, result.items.filter((i) => i.kind === k).length] as const)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => countOf(n, k));
    const blocks: Block[] = [
      { type: "header", text: headline },
      {
        type: "section",
        text: rich`${counts.join(", ")} destroyed. Eradicating them frees *${formatBytes(total)}*; otherwise the array eradicates each when its time runs out.`,
      },
      table.block,
      {
        type: "context",
        text: rich`REST 1.x does not report the space of a single snapshot; a destroyed file system's figure includes its snapshots. Buckets are recovered or eradicated on the array itself.${multi ? " Buttons are offered for one array at a time: add --array <name>." : ""}`,
      },
    ];
    return message(
      `${headline}: ${counts.join(", ")}; eradicating them frees ${formatBytes(total)}`,
      blocks,
      table.attachments.length ? { attachments: table.attachments } : {},
    );
  },
});
