/**
 * The composed bot (Slack mode over Bolt's HTTP receiver, the fake Web API, the simulator, its SQLite store):
 * with `audit_export.file` every record reaches the file in chain order, its audit-channel line names the same
 * seq, and a restart continues the chain from the store where it stopped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChainedRecord } from "../../src/core/audit/audit-chain.js";
import { auditVerifyMain } from "../../tools/audit-verify.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import {
  loadRunSlackConfig,
  RUN_SECRET,
  startRunSlack,
  useRunSlackWorld,
} from "../slack/helpers/run-slack.js";

describe("audit_export in the running bot", () => {
  const world = useRunSlackWorld();

  /** Starts the bot, runs each command as U1 (a viewer) and stops it (which drains the channel and the export). */
  async function session(texts: readonly string[], tag: string): Promise<void> {
    const { fake } = world();
    const loaded = loadRunSlackConfig(world(), [
      "access:",
      "  viewer: { users: [U1] }",
      "audit_channel: CAUDIT",
      "audit_export:",
      "  file: audit.jsonl",
    ]);
    const app = await startRunSlack(loaded);
    for (const [i, text] of texts.entries()) {
      const id = `${tag}-${i}`;
      await signedPost(
        `${app.baseUrl}/slack/events`,
        commandBody(slashCommand({ text, responseUrl: fake.responseUrl(id) })),
        { secret: RUN_SECRET },
      );
      await fake.waitForResponse((r) => r.id === id);
    }
    expect(await app.stop()).toBe(0);
  }

  const channelLines = () =>
    world()
      .fake.callsOf("chat.postMessage")
      .filter((c) => c.args["channel"] === "CAUDIT")
      .flatMap((c) => String(c.args["text"]).split("\n"));

  it("writes every record, chained, to the file and names its seq in the audit channel; a restart continues", async () => {
    const file = join(world().dir, "audit.jsonl");
    const read = () =>
      readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as ChainedRecord);
    const verify = () => {
      const out: string[] = [];
      const code = auditVerifyMain([file], { out: (l) => out.push(l), err: (l) => out.push(l) });
      return { code, out: out.join("") };
    };

    await session(["fs list", "fs resize scratch 1T", "array show"], "one");
    const first = read();
    expect(first.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(first.map((r) => `${r.command} ${r.decision}`)).toEqual([
      "fs.list allowed",
      "fs.resize denied",
      expect.stringMatching(/^array\.show /),
    ]);
    expect(verify()).toEqual({ code: 0, out: "ok: 3 records, chain intact, seq 1 to 3" });
    expect(channelLines()).toEqual(
      first.map((r) => `${r.command} ${r.decision}: ${r.outcome} · seq ${r.seq}`),
    );
    const blocks = JSON.stringify(
      world()
        .fake.callsOf("chat.postMessage")
        .filter((c) => c.args["channel"] === "CAUDIT")
        .map((c) => c.args["blocks"]),
    );
    expect(blocks).toContain("`fs.resize` denied for alice in <#C1> on lab-1: error (FORBIDDEN) · seq 2");

    await session(["fs list"], "two");
    const all = read();
    expect(all.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(all[3]?.prev_hash).toBe(first[2]?.hash);
    expect(verify()).toEqual({ code: 0, out: "ok: 4 records, chain intact, seq 1 to 4" });
  });
});
