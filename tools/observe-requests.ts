/**
 * What each hand-written command sends, observed rather than declared: its examples run against the console's
 * demo arrays (src/local/demo.ts), mutating ones with `--dry-run`, and the REST calls are read from what
 * happened — the GETs a read made on the wire (the array pool's call observer), the planned requests a
 * dry run lists for a change. docs/commands.md shows these in its "sends" column for commands the catalogue
 * does not describe as data, so the column cannot drift from the code.
 */

import { CATALOGUE_VERBS } from "../commands/catalogue/index.js";
import { RESOURCES } from "../commands/index.js";
import { createMemoryPendingStore } from "../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../src/core/audit/audit.js";
import { commandId, createRegistry, type Registry } from "../src/core/catalogue/registry.js";
import type { Effect } from "../src/core/context/pipeline-types.js";
import { createPipeline } from "../src/core/pipeline/pipeline.js";
import type { Message } from "../src/core/presentation/message.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import { startDemo } from "../src/local/demo.js";
import { silentLogger } from "../src/logger.js";
import type { HttpMethod } from "../src/rest-spec/endpoints.js";
import { findOperation } from "../src/rest-spec/operations.js";

/**
 * A request as the catalogue names its endpoints (the 1.x path where 1.x has the operation): the demo's arrays
 * may speak either generation (ARRAY_SIM_VERSIONS), and the docs must not change with the wire they watched.
 */
function declared(method: string, path: string): string {
  return `${method} ${findOperation(method as HttpMethod, path)?.v1?.path ?? path}`;
}

/** The demo user with the admin role, so every example is allowed. */
const ADMIN = "alice";
/** A planned request as the dry run prints it: `PATCH /api/1.12/file-systems?names=x {…}`. */
const PLANNED = /^(GET|POST|PATCH|DELETE) \/api\/\d+\.\d+(\/[^?\s]*)/;

function plannedRequests(effects: readonly Effect[]): string[] {
  const messages: Message[] = effects.flatMap((e) =>
    e.kind === "reply" || e.kind === "post" || e.kind === "update" ? [e.message] : [],
  );
  const dry = messages.filter((m) => m.text.startsWith("Dry run"));
  return dry.flatMap((m) =>
    m.blocks.flatMap((b) =>
      b.type === "code"
        ? b.text.split("\n").flatMap((line) => {
            const hit = PLANNED.exec(line);
            return hit ? [declared(hit[1] ?? "", hit[2] ?? "")] : [];
          })
        : [],
    ),
  );
}

/**
 * Command id → the REST calls its examples send ("GET /file-systems"), for every command the catalogue does
 * not already describe. The first example that reaches the array counts; a command none of whose examples
 * reach it (one that only talks to the bot, or whose change the demo refuses) is absent.
 */
export async function observeRequests(
  registry: Registry = createRegistry(RESOURCES),
): Promise<Map<string, string[]>> {
  const catalogued = new Set(CATALOGUE_VERBS.map((p) => commandId(p.spec.noun, p.verb)));
  const demo = await startDemo(silentLogger());
  let calls: string[] = [];
  const pool = createArrayPool(demo.loaded.arrays, {
    logger: silentLogger(),
    probeInBackground: false,
    onCall: (e) => {
      // A read of a family only REST 2.x has (an export policy) is made only where the array speaks 2.x: left
      // out, so the column reads the same whichever generation the demo arrays speak.
      const op = findOperation("GET", e.path);
      if (e.method === "GET" && e.path !== "/api_version" && (!op?.v2 || op.v1))
        calls.push(declared("GET", e.path));
    },
  });
  let seq = 0;
  const pipeline = createPipeline({
    registry,
    pool,
    config: demo.loaded.config,
    identity: { groupsOf: async () => [], isRestricted: async () => false },
    store: createMemoryPendingStore(),
    audit: memoryAuditSink(),
    logger: silentLogger(),
    now: () => Date.now(),
    newId: () => `observe-${++seq}`,
  });
  const out = new Map<string, string[]>();
  try {
    for (const entry of registry.all()) {
      // A 2.x-only noun's own command (fleet member join) would run on a demo array only where it speaks 2.x:
      // the docs name its declared endpoints instead, the same whichever generation the demo speaks.
      if (catalogued.has(entry.id) || entry.resource.rest2Only) continue;
      for (const example of entry.command.examples) {
        const mutating = entry.command.impact !== undefined;
        calls = [];
        const effects = await pipeline.handleCommand({
          text: mutating && !/\s--dry-run\b/.test(example) ? `${example} --dry-run` : example,
          actor: { kind: "console" as const, userId: ADMIN, channelId: "C-observe" },
        });
        // Sorted: a command's reads may run in parallel, and the docs must not depend on which answered first.
        const sent = mutating ? plannedRequests(effects) : [...new Set(calls)].sort();
        if (sent.length > 0) {
          out.set(entry.id, [...new Set(sent)]);
          break;
        }
      }
    }
  } finally {
    await pool.close();
    await demo.close();
  }
  return out;
}
