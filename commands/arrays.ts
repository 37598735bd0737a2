/**
 * `/array arrays`: the pool's health, one row per configured array. Hand-written because it reads the bot's
 * session pool (reachable, REST version, latency, last error), not an endpoint of any one array.
 */
import { z } from "zod";
import { defineCommand, defineResource } from "../src/core/catalogue/define-command.js";
import { formatRelative } from "../src/core/presentation/format-time.js";
import { message, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { countOf, formatLatencyMs } from "../src/core/words/units.js";
import type { FleetMember } from "../src/flashblade/fleet-members.js";
import { arrayState } from "../src/flashblade/health-words.js";
import type { ArrayHealth } from "../src/flashblade/types.js";

const arraysHealth = defineCommand({
  verb: "list",
  summary: "Show every configured array: reachable, REST version, how the bot logs in, latency, last error",
  examples: ["arrays list"],
  role: "viewer",
  endpoints: [],
  scope: "global",
  args: z.object({}),
  async run(_args, ctx): Promise<{ health: ArrayHealth[]; fleet: readonly FleetMember[] }> {
    // The version and a login prove the array answers and takes the token; failures show in health(). A
    // stalled array must not hold the answer: after the fan-out deadline it shows as not answered yet.
    // A few arrays at a time (checkAll), so a thousand arrays are not a thousand logins in one burst.
    // The fleets' other members are learned with it: arrays the bot reaches through a configured member.
    const asked = Promise.all([ctx.pool.checkAll(), ctx.pool.discover?.()]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ctx.fanOutDeadlineMs);
    });
    await Promise.race([asked, deadline]);
    clearTimeout(timer);
    return { health: ctx.pool.health(), fleet: ctx.pool.fleetMembers?.() ?? [] };
  },
  render({ health, fleet }, _args, rctx) {
    const up = health.filter((h) => h.reachable).length;
    const headline = `${up} of ${countOf(health.length, "array")} reachable`;
    const rows = health.map((h) => ({
      name: h.name,
      tags: h.tags.join(", ") || "–",
      status: arrayState(h),
      version: h.version ?? "–",
      auth: h.auth === "api_client" ? "API client" : h.auth === "api_token" ? "API token" : "–",
      latency:
        h.latencyMs.p50 === undefined
          ? "–"
          : `${formatLatencyMs(h.latencyMs.p50)} (p95 ${formatLatencyMs(h.latencyMs.p95 ?? h.latencyMs.p50)})`,
      error: h.lastError ? `${h.lastError.message} (${formatRelative(h.lastError.at, rctx.now)})` : "–",
    }));
    const table = truncatedTable(
      [
        { key: "name", label: "Array" },
        { key: "tags", label: "Tags" },
        { key: "status", label: "Status" },
        { key: "version", label: "REST" },
        { key: "auth", label: "Login" },
        { key: "latency", label: "Latency p50" },
        { key: "error", label: "Last error" },
      ],
      rows,
      {
        limit: rctx.tableRows,
        filename: "arrays.csv",
        title: "Arrays",
        values: health.map((h) => ({
          name: h.name,
          tags: h.tags,
          status: arrayState(h),
          version: h.version ?? null,
          auth: h.auth ?? null,
          latency: h.latencyMs.p50 ?? null,
          error: h.lastError?.message ?? null,
        })),
      },
    );
    // More arrays than the table shows go with it as CSV, like every list's rows.
    return message(
      headline,
      [
        { type: "header", text: headline },
        table.block,
        { type: "context", text: rich`Latency is measured over recent calls from this bot.` },
        ...fleet.map((m) => ({
          type: "context" as const,
          text: rich`Fleet member ${m.name} (fleet ${m.fleet}) is reached through ${m.via}: --array ${m.name}.`,
        })),
      ],
      table.attachments.length > 0 ? { attachments: table.attachments } : {},
    );
  },
});

export const arraysResource = defineResource({
  name: "arrays",
  area: "Operations",
  summary: "The configured arrays and their health",
  defaultVerb: "list",
  commands: [arraysHealth],
});
