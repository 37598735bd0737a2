/**
 * One way to wrap a client (issue 40): the client a command is handed is one interceptor straight over the
 * pool's own client, carrying both hooks (the access policy and the request budget), and a client reached
 * through `ctx.pool` is the same kind of object over that array's client, charging the same budget. Real
 * pipeline, real simulators over HTTPS.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { z } from "zod";
import { defineCommand, defineResource } from "../../src/core/catalogue/define-command.js";
import { InterceptedClient } from "../../src/flashblade/interceptor.js";
import { type Harness, startHarness, textOf } from "./harness.js";

/** What the `probe` command saw of its clients, one entry per run. */
const seen: { array: unknown; other: unknown }[] = [];

const probe = defineResource({
  name: "probe",
  summary: "looks at the clients a command is handed",
  commands: [
    defineCommand({
      verb: "clients",
      summary: "x",
      examples: ["probe clients"],
      args: z.object({}),
      role: "viewer",
      endpoints: [],
      run: async (_a, ctx) => {
        seen.push({ array: ctx.array, other: ctx.pool.get("lab-2") });
        // Two requests, one on each array: both count against the one budget of 3.
        await ctx.array.get("/arrays");
        await ctx.pool.get("lab-2").get("/arrays");
        await ctx.array.get("/arrays");
        await ctx.array.get("/arrays");
        return "SENT ALL";
      },
      render: (r: unknown) => ({ text: String(r), blocks: [], visibility: "ephemeral" as const }),
    }),
  ],
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "lab-2" }],
    resources: [probe],
    config: { limits: { burst: 100, per_minute: 100, concurrent: 10, array_requests_per_command: 3 } },
    limited: true,
  });
});
afterAll(async () => h.close());

test("ctx.array is one interceptor over the array's own client, with the policy and the budget as its hooks", async () => {
  const text = textOf(await h.run("carol", "probe clients --array lab-1"));
  // The fourth request is past the budget shared by both arrays' clients: stopped, not sent.
  expect(text).toContain("more than 3 array requests");
  expect(text).not.toContain("SENT ALL");
  const [{ array, other } = { array: undefined, other: undefined }] = seen;
  expect(array).toBeInstanceOf(InterceptedClient);
  const own = array as InterceptedClient;
  expect(own.inner).toBe(h.pool.get("lab-1"));
  expect(typeof own.hooks.policy).toBe("function");
  expect(typeof own.hooks.budget).toBe("function");
  expect(other).toBeInstanceOf(InterceptedClient);
  expect((other as InterceptedClient).inner).toBe(h.pool.get("lab-2"));
  expect((other as InterceptedClient).hooks).toBe(own.hooks);
});
