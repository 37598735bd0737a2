/**
 * Secrets redacted by schema at every edge: a proxy's password on the dry run and the card, raw API bodies with a
 * secret in any case or escape refused before anything is kept (the refusal's audit record and log lines without
 * the secret), the raw JSON view of an answer holding a token, and the pending store's files.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertOpen } from "../../src/core/approvals/pending-checks.js";
import type { PendingRecord } from "../../src/core/approvals/pending-store.js";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { type MemoryLogger, memoryLogger } from "../fakes/memory-logger.js";
import { onWire } from "../helpers/wire.js";

let h: Harness;
let log: MemoryLogger;
beforeAll(async () => {
  log = memoryLogger("trace");
  h = await startHarness({ arrays: [{ name: "lab-1" }], logger: log.logger });
});
afterAll(async () => h.close());

const support = () => h.sims.get("lab-1")?.state.generic.get("/support")?.items.values().next().value;
const writes = (path: string) =>
  Object.entries(h.sims.get("lab-1")?.control.stats().requests ?? {})
    .filter(([k]) => !k.startsWith("GET") && k.includes(path))
    .reduce((n, [, c]) => n + c, 0);

describe("a proxy's password", () => {
  const proxy = "http://user:Pr0xy-pw-3b9f@proxy.example.com:3128";

  test("shows as user:***@ on the dry run, the card, the result and the audit; the array gets it whole", async () => {
    const dry = textOf(await h.run("alice", `support set --proxy ${proxy} --dry-run --array lab-1`));
    expect(dry).toContain(
      onWire('PATCH /api/1.12/support {"proxy":"http://user:***@proxy.example.com:3128"}'),
    );
    expect(dry).toContain("http://user:***@proxy.example.com:3128");
    const card = await h.run("alice", `support set --proxy ${proxy} --array lab-1`);
    expect(textOf(card)).toContain("user:***@proxy.example.com");
    const done = await h.click("alice", card, "Confirm");
    expect(textOf(done)).toContain("user:***@proxy.example.com");
    expect(support()?.["proxy"]).toBe(proxy);
    const kept = JSON.stringify([dry, card, done, h.audits, log.text()]);
    expect(kept).not.toContain("Pr0xy-pw-3b9f");
    expect(JSON.stringify(h.audits.at(-1))).toContain("user:***@proxy.example.com");
  });
});

describe("raw API bodies holding a secret", () => {
  test.each([
    [
      "upper case",
      `{"bind_user":"x","BIND_PASSWORD":"s3cr3t-upper-0a1"}`,
      "s3cr3t-upper-0a1",
      "BIND_PASSWORD",
    ],
    ["a JSON escape", `{"bind\\u005fpassword":"s3cr3t-escaped-0b2"}`, "s3cr3t-escaped-0b2", "bind_password"],
    [
      "nested",
      `{"management":{"Bind-Password":"s3cr3t-nested-0c3"}}`,
      "s3cr3t-nested-0c3",
      "management.Bind-Password",
    ],
  ])("are refused (%s) before anything is sent, kept or logged", async (_, body, secret, key) => {
    const before = writes("/directory-services");
    const audits = h.audits.length;
    const effects = await h.run(
      "alice",
      `api PATCH /directory-services?names=management '${body}' --array lab-1`,
    );
    expect(textOf(effects)).toContain(`\`${key}\` is a secret`);
    expect(writes("/directory-services")).toBe(before);
    expect(messagesOf(effects).some((m) => m.blocks.some((b) => b.type === "actions"))).toBe(false);
    const record = h.audits.slice(audits);
    expect(record).toHaveLength(1);
    expect(record[0]).toMatchObject({ command: "api.patch", errorCode: "API_SECRET_IN_BODY" });
    expect(record[0]?.text).toContain("[redacted]");
    expect(JSON.stringify([effects, record, log.text()])).not.toContain(secret);
    expect(await h.store.listOpen()).toEqual([]);
  });
});

describe("the raw JSON view", () => {
  test("an admin's API token in a GET answer shows redacted", async () => {
    const m = messagesOf(await h.run("alice", "api GET /admins --array lab-1"))[0];
    const code = m?.blocks.find((b) => b.type === "code");
    const items = JSON.parse(code?.type === "code" ? code.text : "[]") as Record<string, unknown>[];
    const bot = items.find((i) => i["api_token"]);
    expect(bot?.["api_token"]).toMatchObject({ token: "[redacted]" });
  });

  test("the connection key a GET answers with shows redacted, in the table and its CSV", async () => {
    const effects = await h.run("alice", "api GET /array-connections/connection-key --array lab-1");
    const keys = [
      ...(h.sims.get("lab-1")?.state.generic.get("/array-connections/connection-key")?.items.values() ?? []),
    ];
    const text = JSON.stringify(effects);
    expect(text).toContain("[redacted]");
    for (const k of keys) expect(text).not.toContain(String(k["connection_key"]));
  });
});

describe("the pending store's files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "redaction-store-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const rec = (args: Record<string, unknown>): PendingRecord => ({
    id: "p1",
    kind: "request",
    status: "pending",
    commandId: "support.set",
    args,
    commandText: "support set --proxy http://user:***@proxy:3128",
    requester: { userId: "U1" },
    channelId: "C1",
    array: "lab-1",
    requestId: "r1",
    destructiveClass: "array_settings",
    policy: "confirm",
    approvalsRequired: 0,
    approverRole: "operator",
    approvals: [],
    fingerprint: "f",
    state: { proxy: "http://old:0ld-pw-7e@proxy:3128", api_token: "T-0ld" },
    display: { title: "t", summary: "s", facts: [], warnings: [], requests: [] },
    secrets: [{ key: "bindPassword", label: "Bind password" }],
    createdAt: Date.now(),
    expiresAt: Date.now() + 600_000,
    updatedAt: Date.now(),
    messages: [],
  });

  test("hold no secret; the arguments as typed stay in this process only, and elsewhere the request fails unsent", async () => {
    const store = openSqliteStore({ dataDir: dir });
    const pending = createDurablePendingStore(store);
    const args = { proxy: "http://user:St0re-pw-9a@proxy:3128" };
    await pending.create(rec(args));
    const files = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f)).toString("latin1"))
      .join("\n");
    expect(files).toContain("user:***@proxy:3128");
    for (const s of ["St0re-pw-9a", "0ld-pw-7e", "T-0ld"]) expect(files).not.toContain(s);
    // This process runs what was typed; the secret-prompt list (names, not values) is kept as it is.
    expect((await pending.get("p1"))?.args).toEqual(args);
    expect((await pending.get("p1"))?.secrets).toEqual([{ key: "bindPassword", label: "Bind password" }]);

    // Another replica (or this one after a restart) reads the same file: it cannot send the masked value.
    const other = createDurablePendingStore(store);
    expect((await other.get("p1"))?.args).toEqual({ proxy: "http://user:***@proxy:3128" });
    expect(await other.claim("p1", "pending")).toBeUndefined();
    const failed = await other.get("p1");
    expect(failed).toMatchObject({ status: "failed", outcome: "SECRET_NOT_KEPT" });
    // A click on its card says why and what to do, not a bare "already failed".
    if (failed)
      expect(() => assertOpen(failed)).toThrow(
        /typed with a credential.*Nothing was sent; run the command again/,
      );
    await store.close();
  });
});
