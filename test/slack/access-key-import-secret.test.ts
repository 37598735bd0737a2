/**
 * `access-key import` through Slack: the secret is typed in a modal, never in a message. Bolt fed signed requests,
 * the real pipeline with a SQLite pending store on disk, a simulated array over HTTPS, the fake Slack Web API.
 * The button opens the modal (views.open), its submission carries the secret to the array, and the secret then
 * appears nowhere the bot writes: Slack calls (the modal included), response URLs, log lines, audit records, the
 * store's files, /metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import type { Harness } from "./helpers/harness.js";
import { type SecretBot, startSecretBot } from "./helpers/secret-bot.js";

const USER = "backup/veeam";
const KEY = "PSFBIMPORTSLACK00001";
const SECRET = "q9Zt/ImportedFromAnotherBlade+Kx7Wv2Lr0Yp";
const BLOCK = "secret.secret_access_key";

type ButtonJson = { action_id: string; value: string; text: { text: string } };
type ViewJson = {
  callback_id: string;
  private_metadata: string;
  blocks: { type: string; block_id?: string }[];
};

describe("access-key import: the secret goes through a modal and nowhere else", () => {
  let bot: SecretBot;
  let sim: Simulator;
  let h: Harness;
  let audit: SecretBot["audit"];
  let log: SecretBot["log"];
  let seq = 0;

  beforeAll(async () => {
    bot = await startSecretBot("secret-import-");
    ({ sim, h, audit, log } = bot);
  });

  afterAll(async () => bot?.stop());

  const responseUrl = () => h.fake.responseUrl(`imp-${++seq}`);
  const responseTo = (url: string, count = 1) =>
    h.fake.waitForResponse((r) => url.endsWith(`/${r.id}`), count);
  const buttonIn = (blocks: unknown, label: string): ButtonJson | undefined =>
    (blocks as { type: string; elements?: ButtonJson[] }[])
      .flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []))
      .find((e) => e.text.text.startsWith(label));

  /** `userId` submits the secret dialog `view` with `secret` typed in it; Slack's answer to the submission. */
  const submitSecret = (view: ViewJson, userId: string, secret: string) =>
    h.driver.interactive(
      viewSubmission({
        userId,
        callbackId: "array_secret",
        privateMetadata: view.private_metadata,
        values: { [BLOCK]: { secret } },
      }),
    );

  /** bob asks to import `keyId` (the user's other keys cleared first) and opens the secret dialog. */
  async function openImportDialog(keyId: string, messageTs: string): Promise<ViewJson> {
    for (const k of [...sim.state.accessKeys.values()])
      if (k.user === USER) sim.state.accessKeys.delete(k.name);
    const url = responseUrl();
    await h.driver.command(
      slashCommand({
        text: `access-key import ${USER} --key-id ${keyId}`,
        userId: "UBOB",
        userName: "bob",
        responseUrl: url,
      }),
    );
    const button = buttonIn((await responseTo(url)).body["blocks"], "Enter secret");
    if (!button) throw new Error("no Enter secret button");
    const opens = h.fake.callsOf("views.open").length;
    await h.driver.interactive(
      blockAction({
        actionId: button.action_id,
        value: button.value,
        userId: "UBOB",
        userName: "bob",
        messageTs,
        ephemeral: true,
        responseUrl: responseUrl(),
      }),
    );
    return (await h.fake.waitForCall("views.open", () => true, opens + 1)).args["view"] as ViewJson;
  }

  it("the button opens a modal; its submission imports the key; the secret is written nowhere", async () => {
    for (const k of [...sim.state.accessKeys.values()])
      if (k.user === USER) sim.state.accessKeys.delete(k.name);
    const url = responseUrl();
    await h.driver.command(
      slashCommand({
        text: `access-key import ${USER} --key-id ${KEY}`,
        userId: "UBOB",
        userName: "bob",
        responseUrl: url,
      }),
    );
    const card = await responseTo(url);
    expect(card.body["response_type"]).toBe("ephemeral");
    const button = buttonIn(card.body["blocks"], "Enter secret");
    if (!button) throw new Error(`no Enter secret button in ${JSON.stringify(card.body)}`);

    const opens = h.fake.callsOf("views.open").length;
    await h.driver.interactive(
      blockAction({
        actionId: button.action_id,
        value: button.value,
        userId: "UBOB",
        userName: "bob",
        messageTs: "1700000999.000001",
        ephemeral: true,
        responseUrl: responseUrl(),
      }),
    );
    const open = await h.fake.waitForCall("views.open", () => true, opens + 1);
    const view = open.args["view"] as ViewJson;
    expect(view.callback_id).toBe("array_secret");
    expect(view.blocks.filter((b) => b.type === "input").map((b) => b.block_id)).toEqual([BLOCK]);
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);
    expect(sim.state.accessKeys.has(KEY)).toBe(false);

    // An empty field is refused inline, in the modal, and nothing runs.
    const empty = await submitSecret(view, "UBOB", "  ");
    expect(empty.body).toMatchObject({ response_action: "errors", errors: { [BLOCK]: expect.any(String) } });

    const posts = h.fake.callsOf("chat.postMessage").length;
    const ephs = h.fake.callsOf("chat.postEphemeral").length;
    await submitSecret(view, "UBOB", SECRET);
    // A dialog cannot edit the private card, so its "done" line comes as a new private answer.
    const done = await h.fake.waitForCall("chat.postEphemeral", () => true, ephs + 1);
    expect(done.args).toMatchObject({ channel: "C1", user: "UBOB" });
    expect(JSON.stringify(done.args["blocks"])).toContain(`Done: import access key ${KEY}`);
    const announced = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
    expect(announced.args["channel"]).toBe("C1");
    expect(JSON.stringify(announced.args["blocks"])).toContain(`Imported access key ${KEY}`);
    expect(sim.state.accessKeys.get(KEY)).toMatchObject({ user: USER, secret: SECRET });

    for (const [place, text] of Object.entries(await bot.everywhere())) {
      expect({ place, found: text.includes(SECRET) }).toEqual({ place, found: false });
    }
    // The scan is real: the audit, the logs and the store did see this request.
    expect(audit.records.at(-1)).toMatchObject({
      command: "access-key.import",
      decision: "confirmed",
      outcome: "ok",
    });
    expect(log.text()).toContain("object-store-access-keys");
    expect((await bot.everywhere())["pending store files"]).toContain(KEY);
  });

  it("when the key appeared on the array meanwhile, the requester is told privately and nothing is sent", async () => {
    const other = "PSFBIMPORTSLACK00003";
    const view = await openImportDialog(other, "1700000999.000003");
    // Someone imports the same id on the array itself while the dialog is open.
    sim.state.accessKeys.set(other, {
      id: "elsewhere",
      name: other,
      user: "analytics/etl",
      created: 0,
      enabled: true,
      secret: "imported-by-someone-else",
    });
    const ephs = h.fake.callsOf("chat.postEphemeral").length;
    await submitSecret(view, "UBOB", SECRET);
    const told = await h.fake.waitForCall("chat.postEphemeral", () => true, ephs + 1);
    expect(told.args["user"]).toBe("UBOB");
    expect(JSON.stringify(told.args["blocks"])).toContain(`Access key ${other} is already on lab-1`);
    expect(JSON.stringify(told.args)).not.toContain(SECRET);
    expect(sim.state.accessKeys.get(other)?.secret).not.toBe(SECRET);
  });

  it("someone else submitting the requester's modal imports nothing", async () => {
    const other = "PSFBIMPORTSLACK00002";
    const view = await openImportDialog(other, "1700000999.000002");
    const eph = h.fake.callsOf("chat.postEphemeral").length;
    await submitSecret(view, "UCAROL", SECRET);
    const refused = await h.fake.waitForCall("chat.postEphemeral", () => true, eph + 1);
    expect(refused.args["user"]).toBe("UCAROL");
    expect(JSON.stringify(refused.args)).toContain("can confirm it");
    expect(sim.state.accessKeys.has(other)).toBe(false);
  });
});
