/**
 * The secret scan: every path that takes a secret is driven, through Slack (Bolt's receiver fed signed requests,
 * the fake Slack Web API, a SQLite store on disk, the log stream, the audit records, /metrics) and through the
 * console (main() with a configuration whose store is SQLite: its stdout, stderr and the store's files); then
 * everything written is scanned for every secret the test typed, in its case variants and escaped forms. The one
 * message allowed to hold a secret is a new access key's answer to its requester, which is taken out of the scan
 * after checking it went to that person alone. The array itself does get the secrets: the scan is not vacuous.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockAction, slashCommand, viewSubmission } from "../fakes/payloads.js";
import { type ConsoleWorld, startConsoleWorld } from "../local/console-world.js";
import { type SecretBot, startSecretBot } from "../slack/helpers/secret-bot.js";

/** Every secret the tests type, each distinct so a hit names its path. */
const S = {
  proxyPw: "PxPw-Set-7d1e9a",
  rawProxyPw: "PxPw-Raw-41c0b2",
  bindUpper: "Bind-Upper-s3cr3t-55aa",
  bindEscaped: "Bind-Escaped-s3cr3t-66bb",
  nested: "Nested-Pass-77cc",
  modalBind: "Modal-Bind-88dd",
  importSecret: "q9Zt/ImportScan+Kx7Wv2Lr0Yp1",
  consoleProxyPw: "PxPw-Console-99ee",
  consoleBind: "Console-Bind-aa11",
  consoleImport: "Zt9q/ConsoleImport+Wv2Kx7Lr0Yp",
} as const;

/** A secret as it could appear: as typed, in either case, JSON-escaped, URL-encoded. */
function variants(secret: string): string[] {
  return [
    ...new Set([
      secret,
      secret.toLowerCase(),
      secret.toUpperCase(),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(JSON.stringify(secret)).slice(2, -2),
      encodeURIComponent(secret),
    ]),
  ];
}

function hits(places: Record<string, string>, secrets: readonly string[]): string[] {
  const out: string[] = [];
  for (const [place, text] of Object.entries(places))
    for (const s of secrets) for (const v of variants(s)) if (text.includes(v)) out.push(`${v} in ${place}`);
  return out;
}

type ButtonJson = { action_id: string; value: string; text: { text: string } };
type ViewJson = { private_metadata: string; blocks: { type: string; block_id?: string }[] };

describe("the secret scan: Slack", () => {
  let bot: SecretBot;
  let seq = 0;

  beforeAll(async () => {
    bot = await startSecretBot("secret-scan-all-", {
      admins: ["UALICE", "UDAVE"],
      approvalsChannel: "CAPPROVE",
    });
  });
  afterAll(async () => bot?.stop());

  const url = () => bot.h.fake.responseUrl(`scan-${++seq}`);
  async function run(text: string, userId: string) {
    const u = url();
    await bot.h.driver.command(slashCommand({ text, userId, responseUrl: u }));
    return (await bot.h.fake.waitForResponse((r) => u.endsWith(`/${r.id}`))).body;
  }
  const buttons = (body: Record<string, unknown>): ButtonJson[] =>
    ((body["blocks"] ?? []) as { type: string; elements?: ButtonJson[] }[]).flatMap((b) =>
      b.type === "actions" ? (b.elements ?? []) : [],
    );
  async function click(body: Record<string, unknown>, label: string, userId: string, ephemeral = true) {
    const b = buttons(body).find((x) => x.text.text.startsWith(label));
    if (!b) throw new Error(`no ${label} button in ${JSON.stringify(body)}`);
    const u = url();
    await bot.h.driver.interactive(
      blockAction({
        actionId: b.action_id,
        value: b.value,
        userId,
        messageTs: `1700001000.${String(++seq).padStart(6, "0")}`,
        ephemeral,
        responseUrl: u,
      }),
    );
    return u;
  }
  /** Opens the secret dialog of `card` as `userId` and submits `secret` in its one field. */
  async function typeSecret(card: Record<string, unknown>, userId: string, secret: string) {
    const opens = bot.h.fake.callsOf("views.open").length;
    await click(card, "Enter secret", userId);
    const view = (await bot.h.fake.waitForCall("views.open", () => true, opens + 1)).args["view"] as ViewJson;
    const field = view.blocks.find((b) => b.type === "input")?.block_id ?? "";
    const posts = bot.h.fake.callsOf("chat.postEphemeral").length;
    await bot.h.driver.interactive(
      viewSubmission({
        userId,
        callbackId: "array_secret",
        privateMetadata: view.private_metadata,
        values: { [field]: { secret } },
      }),
    );
    await bot.h.fake.waitForCall("chat.postEphemeral", () => true, posts + 1);
  }

  it("proxies with credentials, raw bodies with secrets, dialogs and a new key: the secrets reach the array and nothing else", async () => {
    const { sim, h } = bot;

    const support = () =>
      sim.state.generic.get("/support")?.items.values().next().value as Record<string, unknown> | undefined;

    // support set --proxy with a password: dry run, card, confirmation.
    const proxy = `http://proxyuser:${S.proxyPw}@proxy.example.com:3128`;
    const dry = JSON.stringify(await run(`support set --proxy ${proxy} --dry-run`, "UALICE"));
    expect(dry).toContain("http://proxyuser:***@proxy.example.com:3128");
    const card = await run(`support set --proxy ${proxy}`, "UALICE");
    expect(JSON.stringify(card)).toContain("proxyuser:***@proxy.example.com");
    const confirmed = await click(card, "Confirm", "UALICE");
    const done = await h.fake.waitForResponse((r) => confirmed.endsWith(`/${r.id}`));
    expect(done.body["text"]).toContain("Done: set support");
    expect(support()?.["proxy"]).toBe(proxy);

    // The raw API: a proxy with a password waits for an admin's approval, in the approvals channel too.
    const rawProxy = `http://rawuser:${S.rawProxyPw}@proxy2.example.com:3128`;
    const asked = JSON.stringify(await run(`api PATCH /support '{"proxy":"${rawProxy}"}'`, "UALICE"));
    expect(asked).toContain("Posted an approval request");
    const inChannel = (channel: string) =>
      h.fake.waitForCall(
        "chat.postMessage",
        (c) => c.args["channel"] === channel && JSON.stringify(c.args).includes("proxy2.example.com"),
      );
    const rawCard = (await inChannel("C1")).args;
    expect(JSON.stringify(rawCard)).toContain("rawuser:***@proxy2.example.com");
    expect(JSON.stringify((await inChannel("CAPPROVE")).args)).toContain("rawuser:***@proxy2.example.com");
    const updates = h.fake.callsOf("chat.update").length;
    await click(rawCard, "Approve", "UDAVE", false);
    // The card is updated in place once the change is carried out.
    await h.fake.waitForCall("chat.update", () => true, updates + 1);
    expect(support()?.["proxy"]).toBe(rawProxy);

    // Raw bodies holding a secret, in any case, escape or depth: refused before anything is kept.
    const dirWrites = () => sim.control.stats().requests["PATCH /api/1.12/directory-services"] ?? 0;
    const before = dirWrites();
    for (const body of [
      `{"bind_user":"x","BIND_PASSWORD":"${S.bindUpper}"}`,
      `{"bind\\u005fpassword":"${S.bindEscaped}"}`,
      `{"management":{"user_login_attribute":"uid","Pass-Word":"${S.nested}"}}`,
    ]) {
      const refused = JSON.stringify(
        await run(`api PATCH /directory-services?names=management '${body}'`, "UALICE"),
      );
      expect(refused).toContain("is a secret");
      expect(bot.audit.records.at(-1)).toMatchObject({
        command: "api.patch",
        errorCode: "API_SECRET_IN_BODY",
      });
    }
    expect(dirWrites()).toBe(before);
    expect(bot.audit.records.at(-1)?.text).toContain("[redacted]");

    // A secret typed in a Slack dialog.
    const dirCard = await run("directory update management --bind-password", "UALICE");
    await typeSecret(dirCard, "UALICE", S.modalBind);
    expect(sim.state.generic.get("/directory-services")?.items.get("management")?.["bind_password"]).toBe(
      S.modalBind,
    );
    const importCard = await run("access-key import backup/veeam --key-id PSFBSCANIMPORT00001", "UBOB");
    await typeSecret(importCard, "UBOB", S.importSecret);
    expect(sim.state.accessKeys.get("PSFBSCANIMPORT00001")?.secret).toBe(S.importSecret);

    // A new access key: its secret is shown once, to its requester alone.
    const keysBefore = new Set(sim.state.accessKeys.keys());
    const created = await run("access-key create analytics/etl", "UBOB");
    const key = [...sim.state.accessKeys.values()].find((k) => !keysBefore.has(k.name));
    if (!key) throw new Error("no key was created");
    expect(created["response_type"]).toBe("ephemeral");
    expect(JSON.stringify(created)).toContain(key.secret);

    const places = await bot.everywhere();
    // That one answer is the exception; every other response URL post is scanned.
    places["response URL posts"] = JSON.stringify(
      h.fake.responses.filter((r) => !JSON.stringify(r.body).includes(key.secret)),
    );
    expect(h.fake.responses.filter((r) => JSON.stringify(r.body).includes(key.secret))).toHaveLength(1);
    expect(hits(places, [...Object.values(S), key.secret])).toEqual([]);
    // The scan looked at real traffic: the store, the logs and the audit saw these requests.
    expect(places["pending store files"]).toContain("proxy2.example.com");
    expect(places["log lines"]).toContain("directory-services");
    expect(places["audit records"]).toContain("API_SECRET_IN_BODY");
  });
});

describe("the secret scan: console", () => {
  let world: ConsoleWorld;
  beforeAll(async () => {
    world = await startConsoleWorld("secret-scan-console-");
  });
  afterAll(async () => world.close());

  it("the secret prompt, proxies and raw bodies: stdout, stderr and the store's files hold no secret", async () => {
    const proxy = `http://cuser:${S.consoleProxyPw}@proxy3.example.com:3128`;
    const lines = [
      "/as alice",
      `/array support set --proxy ${proxy} --dry-run`,
      `/array support set --proxy ${proxy}`,
      "1",
      `/array api PATCH /directory-services?names=management '{"BIND_PASSWORD":"${S.consoleBind}"}'`,
      `/array api PATCH /directory-services?names=management '{"bind\\u005fpassword":"${S.consoleBind}"}'`,
      "/array directory update management --bind-password",
      "1",
      S.consoleBind,
      "/array access-key import backup/veeam --key-id PSFBSCANCONSOLE0001",
      "1",
      S.consoleImport,
    ];
    const { out, err } = await world.run(lines);
    const { sim, dir } = world;
    expect(out).toContain("cuser:***@proxy3.example.com");
    expect(out).toContain("`BIND_PASSWORD` is a secret");
    const support = sim.state.generic.get("/support")?.items.values().next().value as Record<string, unknown>;
    expect(support["proxy"]).toBe(proxy);
    expect(sim.state.generic.get("/directory-services")?.items.get("management")?.["bind_password"]).toBe(
      S.consoleBind,
    );
    expect(sim.state.accessKeys.get("PSFBSCANCONSOLE0001")?.secret).toBe(S.consoleImport);
    const state = join(dir, "state");
    const files = readdirSync(state)
      .map((f) => readFileSync(join(state, f)).toString("latin1"))
      .join("\n");
    expect(files).toContain("proxy3.example.com");
    expect(hits({ stdout: out, stderr: err, "store files": files }, Object.values(S))).toEqual([]);
  });
});
