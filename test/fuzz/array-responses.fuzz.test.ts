/**
 * Answers a real array should never give, served by a tiny HTTPS server on loopback, through the real client
 * and the real pipeline: missing fields, wrong types, nulls, non-JSON, error statuses with odd bodies, pages far
 * larger than asked for, and a continuation_token that never ends. `fs list` and `fs show` always finish, with
 * a result or a user-facing error (never the generic "something went wrong"), and nothing leaks the API token.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { Secret } from "../../src/config/secret.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import type { Pipeline } from "../../src/core/context/pipeline-types.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { selfSignedCertificate } from "../../src/simulator/index.js";
import { textOf } from "../core/harness.js";
import { type MemoryLogger, memoryLogger } from "../fakes/memory-logger.js";

const API_TOKEN = "T-fuzz-array-token-0d41";
const SESSION = "sess-fuzz-4c2e";

interface Answer {
  status: number;
  body: string;
}

/** What GET /file-systems answers for one fuzz case: a function of the page number. */
type Script = (page: number, query: URLSearchParams) => Answer;

const goodFs = (i: number) => ({
  name: `fs-${i}`,
  id: `id-${i}`,
  created: 1_700_000_000_000,
  provisioned: 2 ** 40,
  destroyed: false,
  nfs: { enabled: true },
  space: { virtual: 2 ** 30, data_reduction: 1.5 },
});

const junk = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(-1),
  fc.constant(Number.MAX_SAFE_INTEGER),
);
/** A file system with some fields removed or replaced by junk. */
const brokenFs = fc
  .record({
    i: fc.nat(50),
    drop: fc.subarray(["name", "id", "provisioned", "destroyed", "nfs", "space", "created"]),
    retype: fc.dictionary(
      fc.constantFrom("name", "provisioned", "destroyed", "nfs", "space", "created", "smb"),
      junk,
      { maxKeys: 3 },
    ),
  })
  .map(({ i, drop, retype }) => {
    const fs: Record<string, unknown> = { ...goodFs(i) };
    for (const k of drop) delete fs[k];
    return { ...fs, ...retype };
  });

const envelope = (items: unknown[], info: Record<string, unknown> = {}) =>
  JSON.stringify({ pagination_info: { total_item_count: items.length, ...info }, items });

const script: fc.Arbitrary<Script> = fc.oneof(
  // Items with missing or mistyped fields.
  fc.array(brokenFs, { maxLength: 5 }).map((items) => () => ({ status: 200, body: envelope(items) })),
  // Envelopes of the wrong shape.
  fc
    .oneof(
      fc.constantFrom(
        "",
        "null",
        "[]",
        "{}",
        '{"items":{}}',
        '{"items":null}',
        "<html>502</html>",
        '{"items":[',
        "\u0000",
      ),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
    )
    .map((body) => () => ({ status: 200, body })),
  // pagination_info junk.
  fc
    .dictionary(fc.constantFrom("total_item_count", "continuation_token"), junk, { maxKeys: 2 })
    .map((info) => (page: number) => ({ status: 200, body: envelope(page === 0 ? [goodFs(1)] : [], info) })),
  // Error statuses with odd bodies (429 and 503 are retried; the rest refused).
  fc
    .record({
      status: fc.constantFrom(400, 401, 403, 404, 409, 418, 429, 500, 502, 503),
      body: fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.constant('{"errors":[{"message":"<!channel> *boom* <https://evil|click>","context":"x"}]}'),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify({ errors: v })),
      ),
    })
    .map((a) => () => a),
  // A continuation token that never ends, with empty pages.
  fc.constant<Script>((page) => ({
    status: 200,
    body: envelope(page === 0 ? [goodFs(0)] : [], { continuation_token: "again" }),
  })),
);

describe("array responses fuzz (a misbehaving array over HTTPS)", () => {
  let server: Server;
  let current: Script = () => ({ status: 200, body: envelope([]) });
  let page = 0;
  let listCalls = 0;
  let pool: ArrayPool;
  let pipeline: Pipeline;
  let log: MemoryLogger;

  beforeAll(async () => {
    const tls = await selfSignedCertificate();
    server = createServer(tls, (req, res) => {
      const url = new URL(req.url ?? "/", "https://x");
      const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(body);
      };
      req.resume();
      if (url.pathname === "/api/api_version") return reply(200, '{"versions":["1.0","1.12"]}');
      if (url.pathname === "/api/login") {
        if (req.headers["api-token"] !== API_TOKEN) return reply(401, "{}");
        return reply(200, '{"username":"pureuser"}', { "x-auth-token": SESSION });
      }
      if (url.pathname === "/api/logout") return reply(200, "{}");
      if (url.pathname.endsWith("/file-systems") && req.method === "GET") {
        listCalls++;
        page = url.searchParams.has("token") ? page + 1 : 0;
        const a = current(page, url.searchParams);
        return reply(a.status, a.body);
      }
      return reply(404, '{"errors":[{"message":"not here"}]}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    log = memoryLogger();
    pool = createArrayPool(
      [
        {
          name: "odd-1",
          origin,
          apiToken: new Secret(API_TOKEN),
          ca: tls.cert,
          insecure: false,
          tags: [],
          connections: 2,
          rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 100 },
          timeouts: { connectMs: 2000, readMs: 10_000 },
          // Never mark the array down: each case must reach the server.
          downAfterFailures: 1_000_000,
        },
      ],
      { logger: log.logger, sleep: async () => {} },
    );
    pipeline = createPipeline({
      registry: createRegistry(RESOURCES),
      pool,
      config: configSchema.parse({
        arrays: [{ name: "odd-1", address: origin, api_token_env: "T" }],
        access: { default_role: "viewer" },
        // Longer than the read time-out: every case finishes inside handleCommand, so no late answer keeps
        // paging in the background into the next case's counters.
        fan_out_deadline: "60s",
      }),
      identity: { groupsOf: async () => [], isRestricted: async () => false },
      store: createMemoryPendingStore(),
      audit: memoryAuditSink(),
      logger: log.logger,
      now: Date.now,
    });
  });
  afterAll(async () => {
    await pool?.close();
    await new Promise((r) => server?.close(r));
  });

  it("fs list and fs show finish with an answer or a user-facing error, whatever the array sends", async () => {
    await fc.assert(
      fc.asyncProperty(
        script,
        fc.constantFrom("fs list", "fs show fs-1", "fs list --sort used-"),
        async (s, cmd) => {
          current = s;
          const effects = await pipeline.handleCommand({
            text: cmd,
            actor: { kind: "person" as const, userId: "U1", channelId: "C1" },
          });
          const text = textOf(effects);
          expect(text).not.toMatch(/Something went wrong/);
          expect(text).not.toContain(API_TOKEN);
          expect(text).not.toContain(SESSION);
        },
      ),
      { numRuns: 80 },
    );
    expect(log.text()).not.toContain(API_TOKEN);
    expect(log.text()).not.toContain(SESSION);
  });

  it("a token that never ends with full pages is cut off by the row cap, and the answer says how many exist", async () => {
    current = (p) => ({
      status: 200,
      body: envelope([goodFs(p)], { continuation_token: "same", total_item_count: 10 ** 9 }),
    });
    listCalls = 0;
    const effects = await pipeline.handleCommand({
      text: "fs list --limit 30",
      actor: { kind: "person" as const, userId: "U1", channelId: "C1" },
    });
    expect(listCalls).toBeLessThanOrEqual(32);
    expect(textOf(effects)).toContain("1,000,000,000 file systems");
  });

  it("a page far larger than asked for is read, capped at the row limit, and counted honestly", async () => {
    current = () => ({ status: 200, body: envelope(Array.from({ length: 20_000 }, (_, i) => goodFs(i))) });
    const effects = await pipeline.handleCommand({
      text: "fs list",
      actor: { kind: "person" as const, userId: "U1", channelId: "C1" },
    });
    expect(textOf(effects)).toContain("20,000 file systems");
  });

  it("stops a continuation token that never ends and says so", async () => {
    current = (p) => ({
      status: 200,
      body: envelope(p === 0 ? [goodFs(0)] : [], { continuation_token: "again" }),
    });
    const effects = await pipeline.handleCommand({
      text: "fs list",
      actor: { kind: "person" as const, userId: "U1", channelId: "C1" },
    });
    expect(textOf(effects)).toMatch(/array odd-1 answered \/file-systems.*continuation_token/);
  });
});
