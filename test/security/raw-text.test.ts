/**
 * No raw text outlives its parse (issue 39). A JSON body typed in Slack without quotes around it loses its own
 * quotes to the tokenizer (`{"password":"hunter3pw"}` becomes the word `{password:hunter3pw}`), so it is no longer
 * JSON and no key-based redaction can read it. Through Bolt's HTTP receiver with the fake Slack and a SQLite store,
 * and through the console (main() with a SQLite store): every such body, whole, split at its blanks, given with
 * `--body=`, or one JSON.parse would quote in its error, is refused before anything is sent; the refusal quotes
 * none of it; and no log line, audit record, store file, Slack call or console output holds the secret.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactCommandLine, redactTypedArgs } from "../../src/core/presentation/redact.js";
import { slashCommand } from "../fakes/payloads.js";
import { startConsoleWorld } from "../local/console-world.js";
import { type SecretBot, startSecretBot } from "../slack/helpers/secret-bot.js";

/** Each line's secret is its own, so a hit names the line that leaked. */
const LINES: readonly [line: string, secret: string][] = [
  ['api PATCH /smtp {"password":"hunter3pw"}', "hunter3pw"],
  ['api PATCH /smtp {"relay_host": "smtp9.example.com", "password": "Split-Pw-51"}', "Split-Pw-51"],
  ['api PATCH /smtp --body={"password":"Inline-Pw-52"}', "Inline-Pw-52"],
  // JSON, but the quote makes `--body=…` one word: a value that is not JSON, holding JSON with a secret.
  [`api PATCH /smtp --body='{"password":"Flag-Quoted-54"}'`, "Flag-Quoted-54"],
  // JSON.parse's own message quotes this one whole ("…, "[Quoted-Pw-53]" is not valid JSON").
  ["api PATCH /smtp [Quoted-Pw-53]", "Quoted-Pw-53"],
];

function hits(places: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [place, text] of Object.entries(places))
    for (const [, secret] of LINES)
      if (text.toLowerCase().includes(secret.toLowerCase())) out.push(`${secret} in ${place}`);
  return out;
}

describe("raw text: redacted lines", () => {
  it("a word that opens like JSON but does not parse goes with the rest of the line; parsed JSON is redacted by key", () => {
    expect(redactCommandLine("api PATCH /smtp {password:hunter3pw}")).toBe("api PATCH /smtp [redacted]");
    expect(redactCommandLine("api PATCH /smtp {relay_host: x, password: pw}")).toBe(
      "api PATCH /smtp [redacted]",
    );
    expect(redactCommandLine("api PATCH /smtp --body={password:pw} --dry-run")).toBe(
      "api PATCH /smtp --body=[redacted]",
    );
    expect(redactCommandLine(`api PATCH /smtp '{"password":"pw","relay_host":"x y"}'`)).toBe(
      `api PATCH /smtp '{"password":"[redacted]","relay_host":"x y"}'`,
    );
  });

  it("typed arguments: JSON-ish text that does not parse goes whole; JSON after --flag= is redacted by key", () => {
    expect(redactTypedArgs({ target: "/smtp", body: "{password:pw}" })).toEqual({
      target: "/smtp",
      body: "[redacted]",
    });
    expect(redactTypedArgs({ body: '--body={"password":"pw","relay_host":"h"}' })).toEqual({
      body: '--body={"password":"[redacted]","relay_host":"h"}',
    });
    expect(redactTypedArgs({ names: ["a", "[pw"] })).toEqual({ names: ["a", "[redacted]"] });
    const clean = { name: "home", body: '{"relay_host":"h"}' };
    expect(redactTypedArgs(clean)).toBe(clean);
  });
});

describe("raw text: Slack", () => {
  let bot: SecretBot;
  beforeAll(async () => {
    bot = await startSecretBot("raw-text-", { admins: ["UALICE"] });
  });
  afterAll(async () => bot?.stop());

  it("bodies that are not JSON are refused before anything is sent, and the secret is in no log, audit, store or answer", async () => {
    const patches = () => bot.sim.control.stats().requests["PATCH /api/1.12/smtp"] ?? 0;
    let n = 0;
    for (const [text] of LINES) {
      const u = bot.h.fake.responseUrl(`raw-${++n}`);
      await bot.h.driver.command(slashCommand({ text, userId: "UALICE", responseUrl: u }));
      const answer = (await bot.h.fake.waitForResponse((r) => u.endsWith(`/${r.id}`))).body;
      expect(String(answer["text"]), text).toMatch(/not JSON|JSON value/);
      // Refused at its arguments (not JSON) or its words (a body split at its blanks), before any impact.
      expect(bot.audit.records.at(-1), text).toMatchObject({ decision: "invalid", outcome: "error" });
    }
    expect(patches()).toBe(0);
    const places = await bot.everywhere();
    expect(hits(places)).toEqual([]);
    // The scan read real traffic: the audit and the log saw these requests, redacted.
    expect(places["audit records"]).toContain("api PATCH /smtp [redacted]");
    expect(places["log lines"]).toContain("api.patch");
  });
});

describe("raw text: console", () => {
  it("the echo, the refusal, the failure list and the store's files hold no secret", async () => {
    const world = await startConsoleWorld("raw-text-console-");
    try {
      const { out, err } = await world.run(["/as alice", ...LINES.map(([line]) => `/array ${line}`)]);
      expect(out).toContain("alice> /array api PATCH /smtp [redacted]");
      expect(out).toContain("The body is not JSON");
      const state = join(world.dir, "state");
      const files = readdirSync(state)
        .map((f) => readFileSync(join(state, f)).toString("latin1"))
        .join("\n");
      expect(hits({ stdout: out, stderr: err, "store files": files })).toEqual([]);
      expect(world.sim.control.stats().requests["PATCH /api/1.12/smtp"] ?? 0).toBe(0);
    } finally {
      await world.close();
    }
  });
});
