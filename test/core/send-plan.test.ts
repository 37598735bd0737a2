/**
 * The one send path (src/core/requests/send-plan.ts), through the real pipeline and simulators: a command that plans no
 * request sends nothing and says so; run-time values fill only the placeholders the card named; a request for
 * another array goes to the array it names as data.
 */

import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { defineCommand, defineResource, type Impact } from "../../src/core/catalogue/define-command.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { onWire, requestCount, wirePath } from "../helpers/wire.js";
import { type Harness, startHarness, textOf } from "./harness.js";

const KEY = "(made on the other array)";

function impactOf(requests: Impact["requests"], placeholders?: string[]): Impact {
  return {
    target: "the probe",
    summary: rich`Probes.`,
    facts: [],
    warnings: [],
    state: {},
    requests,
    ...(placeholders ? { placeholders } : {}),
  };
}

const said = (text: string) => message(text, [{ type: "section", text: rich`${text}` }]);

/** Commands shaped for these tests only; each plans its whole change in `impact`. */
const probe = defineResource({
  name: "probe",
  summary: "test commands for the send path",
  commands: [
    defineCommand({
      verb: "nothing",
      summary: "plans no request",
      examples: ["probe nothing"],
      role: "operator",
      endpoints: [],
      args: z.object({}),
      impact: async () => impactOf([]),
      render: () => said("done"),
    }),
    defineCommand({
      verb: "stray",
      summary: "fills a value the card did not name",
      examples: ["probe stray"],
      role: "operator",
      endpoints: ["POST /file-systems"],
      args: z.object({}),
      impact: async () =>
        impactOf([{ method: "POST", path: "/file-systems", query: { names: "x" }, body: { k: KEY } }], [KEY]),
      fill: async () => ({ [KEY]: "k", "(not named)": "sneaked in" }),
      render: () => said("done"),
    }),
    defineCommand({
      verb: "paired",
      summary: "a key made on lab-2 fills the request sent to lab-1",
      examples: ["probe paired"],
      // PATCH /smtp is an array setting: admin, by the access policy.
      role: "admin",
      endpoints: ["POST /object-store-accounts", "PATCH /smtp"],
      args: z.object({}),
      impact: async () =>
        impactOf(
          [
            { method: "POST", path: "/object-store-accounts", query: { names: "made-on-2" }, on: "lab-2" },
            { method: "PATCH", path: "/smtp", body: { relay_host: KEY } },
          ],
          [KEY],
        ),
      fill: async (_a, _ctx, responses) => {
        const made = responses[0]?.[0] as { name?: string } | undefined;
        return { [KEY]: made?.name ?? "?" };
      },
      result: (responses) => responses.length,
      render: (n) => said(`sent ${n}`),
    }),
  ],
});

let h: Harness | undefined;
afterEach(async () => h?.close());

const sent = (harness: Harness, array: string, path: string) =>
  requestCount(harness.sims.get(array)?.control.stats() ?? { requests: {} }, `POST /api/1.12${path}`);
const accounts = (harness: Harness, array: string) => sent(harness, array, "/object-store-accounts");

describe("the pipeline sends the plan", () => {
  test("an impact that plans no request sends nothing and says so, never 'done'", async () => {
    h = await startHarness({ resources: [probe] });
    const text = textOf(await h.run("bob", "probe nothing"));
    expect(text).toContain("Nothing was sent: the probe on lab-1 needs no request, so nothing was changed.");
    expect(text).not.toContain("done");
    expect(h.audits.at(-1)).toMatchObject({ outcome: "error", errorCode: "NOTHING_PLANNED" });
  });

  test("a fill that brings a value for anything the card did not name sends nothing", async () => {
    h = await startHarness({ resources: [probe] });
    await h.run("bob", "probe stray");
    expect(sent(h, "lab-1", "/file-systems")).toBe(0);
    expect(h.audits.at(-1)).toMatchObject({ outcome: "error", errorCode: "PLACEHOLDER_MISMATCH" });
  });

  test("a request naming another array is sent there; its answer fills the next request's placeholder", async () => {
    h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }], resources: [probe] });
    const dry = textOf(await h.run("alice", "probe paired --array lab-1 --dry-run"));
    expect(dry).toContain(onWire("POST /api/1.12/object-store-accounts?names=made-on-2 (on lab-2)"));
    expect(dry).toContain(onWire(`PATCH /api/1.12/smtp {"relay_host":"${KEY}"}`));
    expect(textOf(await h.run("alice", "probe paired --array lab-1"))).toContain("sent 2");
    expect(accounts(h, "lab-2")).toBe(1);
    expect(accounts(h, "lab-1")).toBe(0);
    const patch = h.sims
      .get("lab-1")
      ?.control.stats()
      .recent.find((r) => r.method === "PATCH");
    expect(patch).toMatchObject({
      path: wirePath("PATCH", "/api/1.12/smtp"),
      body: '{"relay_host":"made-on-2"}',
      outcome: 200,
    });
  });
});
