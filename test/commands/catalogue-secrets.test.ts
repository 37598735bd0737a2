/**
 * Secret fields of the catalogue's create and update verbs: the option is a flag, the value is asked through the
 * same private prompt as `access-key import` and joins the body only when the request runs. Pipeline and
 * simulator over HTTPS (core harness).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { REDACTED } from "../../src/core/presentation/redact.js";
import type { Simulator } from "../../src/simulator/index.js";
import { findButton, type Harness, startHarness, textOf } from "../core/harness.js";
import { requestMark, writesSince } from "./sim-requests.js";

const BIND = "correct-horse-battery";
const JOIN = "J0in-The-Domain!";

let h: Harness;
let strict: Harness;
beforeAll(async () => {
  h = await startHarness();
  // Settings changes need another admin's approval here: a secret cannot wait for one.
  strict = await startHarness({ config: { destructive: { array_settings: "approve" } } });
});
afterAll(async () => {
  await h.close();
  await strict.close();
});

const sim = (of: Harness = h): Simulator => {
  const s = of.sims.get("lab-1");
  if (!s) throw new Error("no simulator");
  return s;
};
const asAlice = { kind: "console" as const, userId: "alice", channelId: "C1", displayName: "alice" };
const promptOf = (effects: readonly Effect[]) => {
  const e = effects.find((x) => x.kind === "secret");
  if (e?.kind !== "secret") throw new Error(`no secret prompt in ${JSON.stringify(effects)}`);
  return e;
};
const service = (name: string) => sim().state.generic.get("/directory-services")?.items.get(name);

describe("catalogue secret fields", () => {
  test("ad create asks for the required password privately; nothing is sent before it is typed", async () => {
    // The demo is joined as ad1 and an array joins one domain at a time: leave it first, as an admin would.
    sim().state.generic.get("/active-directory")?.items.delete("ad1");
    const m = requestMark(sim());
    const card = await h.run(
      "alice",
      "ad create ad1 --domain example.com --computer-name FB01 --user joiner",
    );
    expect(textOf(card)).toContain('"password":"(typed in a private dialog)"');
    const button = findButton(card, "Enter secret…");
    const prompt = promptOf(
      await h.pipeline.handleClick({ actionId: button.actionId, value: button.value, actor: asAlice }),
    );
    expect(prompt.fields).toEqual([{ key: "password", label: "Password" }]);
    expect(writesSince(sim(), m, "/active-directory")).toHaveLength(0);

    const done = await h.pipeline.handleClick({
      actionId: prompt.actionId,
      value: prompt.pendingId,
      actor: asAlice,
      secrets: { password: JOIN },
    });
    expect(textOf(done)).toContain("Created ad ad1 on lab-1.");
    // The simulator refuses a join without a password, so the account proves the typed one was sent.
    expect(sim().state.generic.get("/active-directory")?.items.has("ad1")).toBe(true);
    const kept = JSON.stringify([card, done, h.audits, await h.store.get(prompt.pendingId)]);
    expect(kept).not.toContain(JOIN);
    expect(h.audits.at(-1)).toMatchObject({ command: "ad.create", decision: "confirmed", outcome: "ok" });
  });

  test("snmp manager create --version v2c asks for the community privately; it never travels in chat", async () => {
    const m = requestMark(sim());
    const line = "snmp manager create trap9 --host 10.21.0.99 --notification trap --version v2c";
    const card = await h.run("alice", line);
    expect(textOf(card)).toContain('"v2c":{"community":"(typed in a private dialog)"}');
    const button = findButton(card, "Enter secret…");
    const prompt = promptOf(
      await h.pipeline.handleClick({ actionId: button.actionId, value: button.value, actor: asAlice }),
    );
    expect(prompt.fields.map((f) => f.key)).toEqual(["v2cCommunity"]);
    expect(writesSince(sim(), m, "/snmp-managers")).toHaveLength(0);
    const done = await h.pipeline.handleClick({
      actionId: prompt.actionId,
      value: prompt.pendingId,
      actor: asAlice,
      secrets: { v2cCommunity: "n0t-public" },
    });
    expect(textOf(done)).toContain("trap9");
    const [post] = writesSince(sim(), m, "/snmp-managers");
    expect(post?.method).toBe("POST");
    expect(sim().state.generic.get("/snmp-managers")?.items.get("trap9")?.["v2c"]).toMatchObject({
      community: "n0t-public",
    });
    const kept = JSON.stringify([card, done, h.audits, await h.store.get(prompt.pendingId)]);
    expect(kept).not.toContain("n0t-public");
    // A v3 manager has no community to ask for.
    expect(
      textOf(
        await h.run(
          "alice",
          "snmp manager create trap8 --host 10.21.0.98 --notification trap --version v3 --dry-run",
        ),
      ),
    ).not.toContain("community");
  });

  test("directory update --bind-password: one confirmation card, the value asked privately, kept nowhere", async () => {
    const m = requestMark(sim());
    const dry = textOf(await h.run("alice", "directory update management --bind-password --dry-run"));
    expect(dry).toContain('{"bind_password":"(typed in a private dialog)"}');
    expect(dry).toContain("You would be asked for the bind password in a private dialog");
    const card = await h.run("alice", "directory update management --bind-password");
    expect(writesSince(sim(), m, "/directory-services")).toHaveLength(0);
    const button = findButton(card, "Enter secret…");
    const prompt = promptOf(
      await h.pipeline.handleClick({ actionId: button.actionId, value: button.value, actor: asAlice }),
    );
    expect(prompt.fields).toEqual([{ key: "bindPassword", label: "Bind password" }]);
    const done = await h.pipeline.handleClick({
      actionId: prompt.actionId,
      value: prompt.pendingId,
      actor: asAlice,
      secrets: { bindPassword: BIND },
    });
    expect(textOf(done)).toContain("Updated directory management on lab-1.");
    expect(service("management")?.["bind_password"]).toBe(BIND);
    expect(writesSince(sim(), m, "/directory-services")).toHaveLength(1);
    const kept = JSON.stringify([card, done, h.audits, await h.store.get(prompt.pendingId)]);
    expect(kept).not.toContain(BIND);
  });

  test("where settings need someone else's approval, a secret-taking change is refused and nothing is stored or sent", async () => {
    const m = requestMark(sim(strict));
    const effects = await strict.run("alice", "directory update management --bind-password");
    expect(textOf(effects)).toContain("cannot wait for someone else's approval");
    expect(textOf(effects)).toContain("destructive.array_settings: approve");
    expect(effects.some((e) => e.kind === "post")).toBe(false);
    expect(writesSince(sim(strict), m, "/directory-services")).toHaveLength(0);
    expect(strict.audits.at(-1)).toMatchObject({ outcome: "error", errorCode: "SECRET_NEEDS_REQUESTER" });
    // The same change without a secret still goes to approval as configured.
    const plain = await strict.run("alice", "directory update management --bind-user cn=svc");
    expect(textOf(plain)).toContain("Posted an approval request");
  });

  test("a value typed after a secret's flag is refused and kept out of the audit", async () => {
    const m = requestMark(sim());
    const effects = await h.run("alice", "directory update management --bind-password hunter2");
    expect(textOf(effects)).toContain("Unexpected word");
    expect(writesSince(sim(), m, "/directory-services")).toHaveLength(0);
    const rec = h.audits.at(-1);
    expect(rec?.text).toBe(`directory update management --bind-password ${REDACTED}`);
    expect(JSON.stringify(rec)).not.toContain("hunter2");
  });

  test("flags that make the array create a token stay out of chat; help shows secrets as flags", async () => {
    const help = textOf(await h.run("alice", "help admin"));
    expect(help).not.toContain("--create-api-token");
    expect(textOf(await h.run("alice", "help directory"))).toContain("[--bind-password]");
  });
});
