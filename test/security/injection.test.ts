/**
 * Mention and markup injection through every field that echoes array data into Slack: object names, alert
 * components and descriptions, the array's own error messages, and the audit channel's lines. Whatever the
 * array holds, no Slack payload the bot sends carries a live mention (`<!channel>`, `<!here>`, `<@U…>`), a
 * link (`<https://…|…>`) or markup from array text, in any mrkdwn text or notification fallback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { blankFileSystem } from "../../src/simulator/models/file-system.js";
import { blockAction } from "../fakes/payloads.js";
import { type BotWorld, startBotWorld, USERS } from "../fuzz/helpers/bot-world.js";
import { mrkdwnTexts } from "./helpers/mrkdwn.js";

const AUDIT_CHANNEL = "CAUDIT";
const HOSTILE = [
  "<!channel>",
  "<!here|here>",
  "<@UEVIL>",
  "<https://evil.example|click here>",
  "*pwn*",
  "&lt;!everyone&gt;",
  "~pwn~ _it_",
  // Breaking out of a code span the bot put the name in, and markup after it.
  "`*pwn*`",
  "```*pwn*```",
  // A line break starting a new paragraph of the bot's own voice, with a mention in it.
  "line\n<!channel>\n*pwn*",
  "&<>&amp;&lt;x&gt;",
  // Longer than a header (150) and a button label may hold.
  `${"L".repeat(190)}<!here>*pwn*`,
];
/** What must never reach Slack as mrkdwn: a live mention or a link (in blocks and in notification text). */
const LIVE = [/<!channel>/, /<!here/, /<!everyone/, /<@UEVIL>/, /<https:\/\/evil/];
/** Array text turned into markup (bold): checked in blocks, where Slack renders it. */
const MARKUP = /\*pwn\*|~pwn~|_it_/;

describe("mention and markup injection through array data", () => {
  let w: BotWorld;
  beforeAll(async () => {
    w = await startBotWorld({ auditChannel: AUDIT_CHANNEL });
    const s = w.sim.state;
    for (const name of HOSTILE) s.fileSystems.set(name, blankFileSystem(s.newId(), name, s.clock()));
    w.sim.control.raiseAlert({
      code: 1113,
      severity: "critical",
      component: "<!channel> blade <@UEVIL>",
      subject: "*pwn* <https://evil.example|subject>",
      description: "<!here> the array says: <https://evil.example|fix it now> *pwn*",
    });
  });
  afterAll(() => w?.close());

  const everyPayload = () => [
    ...w.slack.fake.responses.map((r) => r.body),
    ...w.slack.fake.calls
      .filter((c) => c.method.startsWith("chat.") || c.method.startsWith("files."))
      .map((c) => c.args),
    ...w.slack.fake.calls.filter((c) => c.method.startsWith("views.")).map((c) => c.args["view"]),
  ];

  /** Every header block's text in the payloads: Slack refuses a header over 150 characters. */
  const headers = (p: unknown): string[] => {
    if (Array.isArray(p)) return p.flatMap(headers);
    if (p === null || typeof p !== "object") return [];
    const o = p as Record<string, unknown>;
    const own = o["type"] === "header" ? [String((o["text"] as { text?: unknown })?.text ?? "")] : [];
    return [...own, ...Object.values(o).flatMap(headers)];
  };

  const expectNothingLive = () => {
    const hs = everyPayload().flatMap(headers);
    for (const h of hs) expect(h.length).toBeLessThanOrEqual(150);
    const texts = everyPayload().flatMap((p) => mrkdwnTexts(p));
    expect(texts.length).toBeGreaterThan(10);
    for (const t of texts) for (const live of LIVE) expect(t).not.toMatch(live);
    const inBlocks = everyPayload().flatMap((p) => mrkdwnTexts(p, false));
    for (const t of inBlocks) expect(t).not.toMatch(MARKUP);
  };

  it("names, alerts and array error messages are escaped everywhere they are shown", async () => {
    const answers = [
      await w.command("fs list --public", USERS.viewer),
      await w.command("fs list --name '<*'", USERS.viewer),
      await w.command("fs show <!channel>", USERS.viewer),
      await w.command("fs show '<@UEVIL>'", USERS.viewer),
      await w.command(`fs show '${"L".repeat(190)}<!here>*pwn*'`, USERS.viewer),
      await w.command("fs show '`*pwn*`'", USERS.viewer),
      await w.command("alert list --state all", USERS.viewer),
      await w.command("alert show 1", USERS.viewer),
    ];
    expect(JSON.stringify(answers)).toContain("UEVIL");
    w.sim.control.failRequests({
      method: "GET",
      path: "/file-systems",
      status: 400,
      count: 2,
      message: "<!channel> <@UEVIL> look at <https://evil.example|this> *pwn*",
    });
    const refused = await w.command("fs list", USERS.viewer);
    expect(JSON.stringify(refused)).toContain("evil.example");
    w.sim.control.clearFaults();

    expectNothingLive();
  });

  it("a change to a hostile name: the prompt, the announcement and the audit channel line are escaped", async () => {
    // Slack display names are the users' own text: as hostile as any array data.
    const userName = "<!channel> *pwn*";
    const prompt = await w.command("fs destroy '~pwn~ _it_'", USERS.operator, { userName });
    const pendingId = JSON.stringify(prompt["blocks"]).match(/"value":"([^"]+)"/)?.[1] ?? "";
    expect(pendingId).not.toBe("");
    const responseUrl = w.nextResponseUrl();
    await w.slack.driver.interactive(
      blockAction({
        actionId: ACTIONS.confirm,
        value: pendingId,
        userId: USERS.operator,
        userName,
        messageTs: "1700000000.000009",
        ephemeral: true,
        responseUrl,
      }),
    );
    const toAudit = (c: { args: Record<string, unknown> }) => c.args["channel"] === AUDIT_CHANNEL;
    const done = await w.slack.fake.waitForResponse((r) => responseUrl.endsWith(`/${r.id}`));
    expect(JSON.stringify(done.body)).toContain("pwn");
    // The confirmation's audit record reaches the audit channel too (its line names the person who confirmed;
    // lines go out in the channel's own time, after the answer).
    const line = await w.slack.fake.waitForCall(
      "chat.postMessage",
      (c) => toAudit(c) && /fs\.destroy` confirmed/.test(JSON.stringify(c.args["blocks"])),
    );
    expect(JSON.stringify(line.args["blocks"])).toContain("pwn");
    expect(w.sim.state.fileSystems.get("~pwn~ _it_")?.destroyed).toBe(true);
    expectNothingLive();
  });
});
