import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { accessSchema } from "../../src/config/schema.js";
import { createAccessResolver } from "../../src/core/access/authz.js";
import type { PendingRecord } from "../../src/core/approvals/pending-store.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import type { AuditRecord } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { Rich } from "../../src/core/presentation/message.js";
import { silentLogger } from "../../src/logger.js";
import {
  AUDIT_BACKLOG,
  AUDIT_LINES_PER_POST,
  auditLine,
  createAuditChannelSink,
} from "../../src/slack/audit-channel.js";
import type { ChatPort } from "../../src/slack/chat-port.js";
import { homeView } from "../../src/slack/home.js";
import { createHomePort } from "../../src/slack/home-data.js";
import { accessGroupIds } from "../../src/slack/run.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";

const access = accessSchema.parse({
  default_role: "none",
  admin: { users: ["UADMIN"], groups: [] },
  operator: { users: [], groups: ["SOPS"] },
  overrides: [{ arrays: ["lab"], operator: { users: ["ULAB"], groups: [] } }],
});
const identity = {
  groupsOf: async (u: string) => (u === "UOP" ? ["SOPS"] : []),
  isRestricted: async (u: string) => u === "UGUEST",
};
const arrays = () => [
  { name: "prod", tags: [], reachable: true, version: "1.12" },
  { name: "lab", tags: [], reachable: false, lastError: { message: "connect ECONNREFUSED" } },
];

function pending(over: Partial<PendingRecord>): PendingRecord {
  return {
    id: "p1",
    kind: "request",
    status: "pending",
    commandId: "fs.eradicate",
    args: {},
    commandText: "fs eradicate old",
    requester: { userId: "UOP", displayName: "olga" },
    channelId: "C0OPS",
    array: "prod",
    requestId: "r1",
    policy: "approve",
    approvalsRequired: 1,
    approverRole: "admin",
    approvals: [],
    fingerprint: "f",
    state: {},
    display: {
      title: "Eradicate file system old on prod",
      summary: "",
      facts: [],
      warnings: [],
      requests: [],
    },
    createdAt: 0,
    expiresAt: Date.UTC(2030, 0, 1),
    updatedAt: 0,
    messages: [],
    ...over,
  };
}

describe("App Home data", () => {
  it("shows each person their role, their arrays, what they may approve, and the commands they may run", async () => {
    const store = createMemoryPendingStore();
    await store.create(pending({}));
    await store.create(pending({ id: "p2", requester: { userId: "UADMIN" } }));
    await store.create(pending({ id: "p3", kind: "offer", policy: "offer" }));
    const registry = createRegistry(RESOURCES);
    const port = createHomePort({
      access: createAccessResolver(access, identity),
      arrays,
      pending: store,
      commands: () => registry.all(),
    });

    const admin = await port.load("UADMIN");
    expect(admin.role).toBe("admin");
    expect(admin.arrays.map((a) => [a.name, a.reachable, a.detail])).toEqual([
      ["prod", true, "REST 1.12"],
      ["lab", false, "connect ECONNREFUSED"],
    ]);
    // Their own request is not theirs to approve; offers are not approvals.
    expect(admin.pending.map((p) => p.id)).toEqual(["p1"]);
    const storage = (d: typeof admin) => d.help.find((h) => h.usage === "Storage")?.summary ?? "";
    expect(admin.help.map((h) => h.usage)).toEqual([
      "Storage",
      "Protection",
      "Replication",
      "Object store",
      "Network",
      "Identity and security",
      "Operations",
      "Insight",
      "REST 2.x only",
    ]);
    // The first-class 2.x-only families, as the help overview names them, and where the rest are.
    const rest2 = admin.help.find((h) => h.usage === "REST 2.x only")?.summary ?? "";
    expect(rest2).toMatch(/\bnfs-export-policy\b.*\/array help 2x/);
    expect(storage(admin)).toMatch(/fs \(list, show, [^)]*\beradicate\b/);

    const operator = await port.load("UOP");
    expect(operator.role).toBe("operator");
    expect(operator.pending).toEqual([]);
    expect(storage(operator)).toMatch(/fs \(list, show, [^)]*\brecover\b/);
    expect(storage(operator)).not.toContain("eradicate");

    const lab = await port.load("ULAB");
    expect(lab.arrays.map((a) => a.name)).toEqual(["lab"]);

    const stranger = await port.load("UNOBODY");
    expect(stranger.role).toMatch(/^none yet/);
    expect(stranger.arrays).toEqual([]);
    expect(stranger.help).toEqual([]);

    const view = homeView(admin, new Date(Date.UTC(2029, 11, 31, 23, 0)));
    expect(blockKitViolations(view.blocks, "view")).toEqual([]);
    expect(JSON.stringify(view.blocks)).toContain("expires in 60 min in <#C0OPS>");
  });

  it("collects every user group the access rules mention", () => {
    expect(accessGroupIds(access)).toEqual(["SOPS"]);
  });
});

describe("audit channel", () => {
  const record: AuditRecord = {
    id: "r1",
    at: "2026-11-22T12:00:00Z",
    userId: "U1",
    displayName: "<!channel> bob",
    channelId: "C0OPS",
    arrays: ["prod"],
    command: "fs.resize",
    args: {},
    decision: "approved",
    approvedBy: ["alice"],
    outcome: "ok",
    durationMs: 12,
  };

  it("writes one line that names people without pinging them", () => {
    const line = auditLine(record).markup;
    expect(line).toBe(
      "`fs.resize` approved for &lt;!channel&gt; bob in <#C0OPS> on prod, approved by alice: ok",
    );
    expect(line).not.toContain("<@");
  });

  it("posts to the channel, and a failing post never fails the request", async () => {
    const posts: string[] = [];
    const chat: ChatPort = {
      post: async (channel) => {
        posts.push(channel);
        if (posts.length > 1) throw new Error("not_in_channel");
        return { channel, channelId: channel, ts: "1.1" };
      },
      update: async () => {},
      postInThread: async (ref) => ({ ...ref, channel: ref.channelId }),
    };
    const sink = createAuditChannelSink({ channelId: "CAUDIT", chat, logger: silentLogger() });
    sink.write(record);
    await sink.flush();
    sink.write(record);
    await expect(sink.flush()).resolves.toBeUndefined();
    expect(posts).toEqual(["CAUDIT", "CAUDIT"]);
  });

  /** A channel that takes a message only when the test lets it (Slack's one a second), recording each. */
  function heldChannel() {
    const messages: { text: string; lines: string[] }[] = [];
    const held: (() => void)[] = [];
    const chat: ChatPort = {
      post: (channel, message) =>
        new Promise((resolve) => {
          held.push(() => {
            messages.push({
              text: message.text,
              lines: (message.blocks ?? []).map((b) =>
                "text" in b && b.text instanceof Rich ? b.text.markup : "",
              ),
            });
            resolve({ channel, channelId: channel, ts: "1.1" });
          });
        }),
      update: async () => {},
      postInThread: async (ref) => ({ ...ref, channel: ref.channelId }),
    };
    const release = async () => {
      while (held.length > 0) {
        held.shift()?.();
        await new Promise<void>((r) => setImmediate(r));
      }
    };
    return { chat, messages, held, release };
  }

  it("never makes a request wait for the channel: lines queue while a post is in flight and go out together, in order", async () => {
    const ch = heldChannel();
    const sink = createAuditChannelSink({ channelId: "CAUDIT", chat: ch.chat, logger: silentLogger() });
    const n = AUDIT_LINES_PER_POST + 5;
    for (let i = 0; i < n; i++) {
      // Returns before anything is posted: the pipeline awaits this before it answers.
      expect(sink.write({ ...record, command: `fs.resize.${i}` })).toBeUndefined();
    }
    expect(ch.held).toHaveLength(1);
    const flushed = sink.flush();
    await ch.release();
    await flushed;
    // The first line alone (posted at once), then the rest in as few messages as the per-post cap allows.
    expect(ch.messages.map((m) => m.lines.length)).toEqual([1, AUDIT_LINES_PER_POST, 4]);
    const order = ch.messages.flatMap((m) => m.lines.map((l) => Number(/fs\.resize\.(\d+)/.exec(l)?.[1])));
    expect(order).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(ch.messages[1]?.text.split("\n")).toHaveLength(AUDIT_LINES_PER_POST);
  });

  it("holds at most AUDIT_BACKLOG lines: the oldest beyond it are dropped, and the next message says how many", async () => {
    const ch = heldChannel();
    const sink = createAuditChannelSink({ channelId: "CAUDIT", chat: ch.chat, logger: silentLogger() });
    const extra = 7;
    // One line in flight, then more than the backlog behind it.
    for (let i = 0; i < 1 + AUDIT_BACKLOG + extra; i++) sink.write({ ...record, command: `fs.resize.${i}` });
    const flushed = sink.flush();
    await ch.release();
    await flushed;
    const lines = ch.messages.flatMap((m) => m.lines);
    expect(lines.filter((l) => l.includes("fs.resize."))).toHaveLength(1 + AUDIT_BACKLOG);
    expect(lines.some((l) => l.includes("fs.resize.1`"))).toBe(false);
    expect(lines.some((l) => l.includes(`fs.resize.${AUDIT_BACKLOG + extra}\``))).toBe(true);
    expect(ch.messages[1]?.lines[0]).toContain(`${extra} earlier audit lines were not posted`);
  });
});
