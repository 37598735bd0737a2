/**
 * `access-key import`: the key id is typed, the secret is asked in a private prompt (a "secret" effect) and
 * travels only in the click that answers it, in memory. Pipeline and simulator over HTTPS (core harness).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import type { Simulator } from "../../src/simulator/index.js";
import { findButton, type Harness, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";
import { requestMark, writesSince } from "./sim-requests.js";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYIMPORTKEY1";
const KEY = "PSFBIMPORTEDKEY00001";
const USER = "backup/veeam";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "old-1", versions: "1.0-1.9" }],
    config: { channels: { default_array: "lab-1" } },
  });
});
afterAll(async () => h.close());

const sim = (name = "lab-1"): Simulator => {
  const s = h.sims.get(name);
  if (!s) throw new Error(`no simulator ${name}`);
  return s;
};
const asBob = { kind: "console" as const, userId: "bob", channelId: "C1", displayName: "bob" };
const secretEffect = (effects: readonly Effect[]) => {
  const e = effects.find((x) => x.kind === "secret");
  if (e?.kind !== "secret") throw new Error(`no secret prompt in ${JSON.stringify(effects)}`);
  return e;
};
/** Everything the bot kept or said that is not the array: effects, audit records, the pending record. */
const kept = async (effects: readonly Effect[], pendingId: string) =>
  JSON.stringify([effects, h.audits, await h.store.get(pendingId)]);

describe("access-key import", () => {
  test("before REST 1.10 it answers with the version and sends nothing", async () => {
    const m = requestMark(sim("old-1"));
    const effects = await h.run("bob", `access-key import ${USER} --key-id ${KEY} --array old-1`);
    expect(textOf(effects)).toContain(
      "`access-key import` needs REST 1.10, old-1 runs 1.9. Nothing was sent.",
    );
    expect(effects.some((e) => e.kind === "secret")).toBe(false);
    expect(() => findButton(effects, "Enter secret…")).toThrow();
    expect(writesSince(sim("old-1"), m, "/object-store-access-keys")).toHaveLength(0);
    expect(h.audits.at(-1)).toMatchObject({
      command: "access-key.import",
      errorCode: "ARRAY_VERSION_TOO_OLD",
    });
  });

  test("a dry run shows the request with a placeholder for the secret and sends nothing", async () => {
    const m = requestMark(sim());
    const text = textOf(await h.run("bob", `access-key import ${USER} --key-id ${KEY} --dry-run`));
    expect(text).toContain(onWire(`POST /api/1.12/object-store-access-keys?names=${KEY}`));
    expect(text).toContain('"secret_access_key":"(typed in a private dialog)"');
    expect(text).toContain("asked for the secret access key in a private dialog");
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);
  });

  test("the button opens a secret prompt for the requester only; the typed secret imports the key and is kept nowhere", async () => {
    const m = requestMark(sim());
    const card = await h.run("bob", `access-key import ${USER} --key-id ${KEY}`);
    expect(textOf(card)).toContain("type the secret access key in the private dialog");
    const button = findButton(card, "Enter secret…");
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);

    // Only the requester may answer: a secret typed by someone else would be theirs, not the requester's.
    const carol = await h.pipeline.handleClick({
      actionId: button.actionId,
      value: button.value,
      actor: { kind: "console" as const, userId: "carol", channelId: "C1" },
      secrets: { secret_access_key: SECRET },
    });
    expect(textOf(carol)).toContain("Only bob, who asked for this, can confirm it.");

    const prompt = secretEffect(
      await h.pipeline.handleClick({ actionId: button.actionId, value: button.value, actor: asBob }),
    );
    expect(prompt.fields).toEqual([{ key: "secret_access_key", label: "Secret access key" }]);
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);

    const done = await h.pipeline.handleClick({
      actionId: prompt.actionId,
      value: prompt.pendingId,
      actor: asBob,
      secrets: { secret_access_key: ` ${SECRET}\n` },
    });
    const key = sim().state.accessKeys.get(KEY);
    expect(key).toMatchObject({ user: USER, secret: SECRET, enabled: true });
    const announced = done.filter((e) => e.kind === "reply").at(-1);
    expect(announced?.kind === "reply" && announced.message.visibility).toBe("in_channel");
    expect(textOf(done)).toContain(`Imported access key ${KEY} for ${USER} on lab-1.`);
    const writes = writesSince(sim(), m, "/object-store-access-keys");
    expect(writes.map((w) => w.method)).toEqual(["POST"]);
    expect(h.audits.at(-1)).toMatchObject({
      command: "access-key.import",
      decision: "confirmed",
      outcome: "ok",
    });
    expect(await kept([...card, ...done], prompt.pendingId)).not.toContain(SECRET);
    expect((await h.store.get(prompt.pendingId))?.status).toBe("executed");
  });

  test("a key id already on the array, and a secret with spaces, are refused before anything is sent", async () => {
    const m = requestMark(sim());
    expect(textOf(await h.run("bob", `access-key import ${USER} --key-id ${KEY}`))).toContain(
      `Access key ${KEY} is already on lab-1 (user ${USER}). Nothing was changed.`,
    );
    const other = "PSFBIMPORTEDKEY00002";
    for (const k of [...sim().state.accessKeys.values()])
      if (k.user === USER) sim().state.accessKeys.delete(k.name);
    const card = await h.run("bob", `access-key import ${USER} --key-id ${other}`);
    const button = findButton(card, "Enter secret…");
    const spaced = "two words";
    const failed = await h.pipeline.handleClick({
      actionId: button.actionId,
      value: button.value,
      actor: asBob,
      secrets: { secret_access_key: spaced },
    });
    expect(textOf(failed)).toContain("The secret you typed has spaces in it");
    expect(textOf(failed)).not.toContain(spaced);
    expect(sim().state.accessKeys.has(other)).toBe(false);
    expect(writesSince(sim(), m, "/object-store-access-keys")).toHaveLength(0);
    expect(JSON.stringify(h.audits)).not.toContain(spaced);
  });

  test("an empty answer is no answer: the prompt comes back and nothing is sent", async () => {
    const other = "PSFBIMPORTEDKEY00003";
    const card = await h.run("bob", `access-key import ${USER} --key-id ${other}`);
    const button = findButton(card, "Enter secret…");
    const again = await h.pipeline.handleClick({
      actionId: button.actionId,
      value: button.value,
      actor: asBob,
      secrets: { secret_access_key: "   " },
    });
    expect(secretEffect(again).pendingId).toBe(button.value);
    expect(sim().state.accessKeys.has(other)).toBe(false);
  });
});
