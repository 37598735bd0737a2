/**
 * The load test's engine: many simulated arrays with injected faults, the real Slack app in HTTP mode with the
 * real pipeline and array pool, and a driver sending signed commands and clicks at a fixed rate from many users
 * (reads, creates, confirmed destroys with double clicks, approved eradications with double submits). At the
 * end it reconciles what the arrays did with the bot's audit records (reconcile.ts).
 */
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { parseSlackSection } from "../../src/config/slack.js";
import { type AuditRecord, memoryAuditSink } from "../../src/core/audit.js";
import { createMemoryPendingStore } from "../../src/core/pending-store-memory.js";
import { createPipeline } from "../../src/core/pipeline.js";
import { ACTIONS } from "../../src/core/pipeline-deps.js";
import { createRegistry } from "../../src/core/registry.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { createSlackApp } from "../../src/slack/app.js";
import { type Reconciliation, reconcile } from "./reconcile.js";
import { postSigned, SlackStub } from "./slack-stub.js";

export interface LoadOptions {
  arrays: number;
  /** Commands (and clicks) started per second. */
  rate: number;
  seconds: number;
  users: number;
  faults: boolean;
  seed?: number;
  /** How long to wait for operations still in flight once sending stops (default 60 s); what is left is unanswered. */
  drainMs?: number;
  /** Progress lines (the CLI prints them). */
  log?: (line: string) => void;
}

export type Kind = "read" | "create" | "destroy" | "confirm" | "eradicate" | "approve";

export interface LoadReport {
  sent: Record<Kind, number>;
  answered: number;
  unanswered: number;
  latencyMs: Record<Kind, { p50: number; p95: number; p99: number; n: number }>;
  reconciliation: Reconciliation;
  slack429: number;
  /** Approve clicks the bot answered without the typed-name dialog (a fault, or a stale plan voided). */
  approvalsWithoutDialog: number;
  rssMiB: { afterWarmUp: number; end: number };
  wallSeconds: number;
}

const SECRET = "load-signing-secret-000000";
/** One approved eradication every 2 s: under Slack's chat.update limit, which the bot paces to. */
const APPROVAL_EVERY_MS = 2000;

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

async function startSims(n: number): Promise<Simulator[]> {
  const sims: Simulator[] = [];
  // A few at a time: each start makes a key pair and opens a port.
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: Math.min(10, n - i) }, (_, j) =>
      startSimulator({ arrayName: `a-${i + j}`, scenario: "demo", seed: i + j + 1 }),
    );
    sims.push(...(await Promise.all(batch)));
  }
  return sims;
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const log = o.log ?? (() => {});
  const random = rng(o.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const started = performance.now();

  const sims = await startSims(o.arrays);
  const names = sims.map((s) => s.arrayName);
  const admins = Array.from({ length: Math.max(2, Math.ceil(o.users / 4)) }, (_, i) => `UADM${i}`);
  const operators = Array.from({ length: Math.max(1, o.users - admins.length) }, (_, i) => `UOPS${i}`);
  const down = o.faults ? names[names.length - 1] : undefined;
  if (o.faults) {
    sims.forEach((sim, i) => {
      if (i % 5 === 0) sim.control.addLatency({ ms: 20 + (i % 7) * 20 });
      if (i % 7 === 1) sim.control.failRequests({ method: "GET", status: 503, share: 0.1 });
      if (i % 11 === 2) sim.control.resetConnections({ method: "GET", share: 0.05 });
    });
    await sims[sims.length - 1]?.control.down();
  }

  const stub = await SlackStub.start({ rate429: o.faults ? 0.05 : 0, random });
  const config = configSchema.parse({
    arrays: names.map((name, i) => ({ name, address: sims[i]?.url, api_token_env: "T" })),
    access: { default_role: "none", admin: { users: admins }, operator: { users: operators } },
  });
  const pool = createArrayPool(
    sims.map((s) =>
      simulatedArrayConfig(s.arrayName, s, {
        connections: 2,
        rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 200 },
        timeouts: { connectMs: 2000, readMs: 10_000 },
      }),
    ),
    { logger: silentLogger() },
  );
  const audit = memoryAuditSink();
  const app = createSlackApp(
    parseSlackSection({
      mode: "http",
      botToken: "xoxb-load",
      signingSecret: SECRET,
      apiUrl: stub.apiUrl,
      port: 0,
      channelIntervalMs: 0,
      drainSeconds: 30,
    }),
    {
      host: "127.0.0.1",
      logger: silentLogger(),
      pipeline: ({ identity }) =>
        createPipeline({
          registry: createRegistry(RESOURCES),
          pool,
          config,
          identity,
          store: createMemoryPendingStore(),
          audit,
          logger: silentLogger(),
          now: Date.now,
        }),
    },
  );
  const { port } = await app.start();
  const events = `http://127.0.0.1:${port}/slack/events`;
  log(`${o.arrays} arrays, bot on port ${port}${down ? `, ${down} down` : ""}`);

  // Responses by response_url id.
  const waiting = new Map<string, (body: Record<string, unknown>) => void>();
  let answered = 0;
  /** Answers that may or may not come (a click that opens a modal answers nothing): not counted as missing. */
  const optional = new Map<string, (body: Record<string, unknown>) => void>();
  stub.events.on("response", (id: string, body: Record<string, unknown>) => {
    const o = optional.get(id);
    if (o !== undefined) {
      optional.delete(id);
      o(body);
      return;
    }
    const w = waiting.get(id);
    if (w === undefined) return;
    waiting.delete(id);
    answered++;
    w(body);
  });
  let seq = 0;
  const post = async (form: Record<string, string>): Promise<void> => {
    const status = await postSigned(events, SECRET, form);
    if (status !== 200) throw new Error(`ack ${status}`);
  };
  const answer = (id: string) => new Promise<Record<string, unknown>>((r) => waiting.set(id, r));
  const command = async (user: string, text: string) => {
    const id = `c${++seq}`;
    const got = answer(id);
    await post({
      command: "/array",
      text,
      user_id: user,
      user_name: user.toLowerCase(),
      channel_id: "CLOAD",
      team_id: "T1",
      trigger_id: `t-${randomUUID()}`,
      response_url: stub.responseUrl(id),
    });
    return got;
  };
  /**
   * A button click; resolves with the response_url answer. With `answered` "maybe" (a click that may open a
   * modal instead), it resolves once the click is delivered, and `maybeAnswer` carries any answer that comes.
   */
  const click = async (
    user: string,
    actionId: string,
    value: string,
    ts: string,
    ephemeral: boolean,
    answered: true | "maybe" = true,
    maybeAnswer?: (body: Record<string, unknown>) => void,
  ) => {
    const id = `k${++seq}`;
    if (answered === "maybe" && maybeAnswer) optional.set(id, maybeAnswer);
    const got = answered === true ? answer(id) : Promise.resolve({});
    const payload = {
      type: "block_actions",
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: "T1" },
      team: { id: "T1" },
      api_app_id: "A1",
      trigger_id: `t-${randomUUID()}`,
      container: { type: "message", message_ts: ts, channel_id: "CLOAD", is_ephemeral: ephemeral },
      channel: { id: "CLOAD", name: "load" },
      message: { type: "message", ts, text: "" },
      response_url: stub.responseUrl(id),
      actions: [
        { type: "button", action_id: actionId, block_id: "b", value, action_ts: `${Date.now() / 1000}` },
      ],
    };
    await post({ payload: JSON.stringify(payload) });
    return got;
  };
  const submit = (user: string, meta: string, typed: string) =>
    post({
      payload: JSON.stringify({
        type: "view_submission",
        team: { id: "T1" },
        user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: "T1" },
        api_app_id: "A1",
        trigger_id: `t-${randomUUID()}`,
        view: {
          id: `V${randomUUID().slice(0, 8)}`,
          type: "modal",
          callback_id: "array_prompt",
          private_metadata: meta,
          state: { values: { confirmation: { typed_text: { type: "plain_text_input", value: typed } } } },
        },
      }),
    });
  /** The value of the first button whose action id starts with `action`, anywhere in `body`. */
  const buttonValue = (body: unknown, action: string): string | undefined => {
    if (Array.isArray(body)) {
      for (const b of body) {
        const v = buttonValue(b, action);
        if (v !== undefined) return v;
      }
      return undefined;
    }
    if (body === null || typeof body !== "object") return undefined;
    const o = body as Record<string, unknown>;
    if (
      typeof o["action_id"] === "string" &&
      o["action_id"].startsWith(action) &&
      typeof o["value"] === "string"
    ) {
      return o["value"];
    }
    return buttonValue(Object.values(o), action);
  };

  const sent: Record<Kind, number> = { read: 0, create: 0, destroy: 0, confirm: 0, eradicate: 0, approve: 0 };
  const lat: Record<Kind, number[]> = {
    read: [],
    create: [],
    destroy: [],
    confirm: [],
    eradicate: [],
    approve: [],
  };
  const timed = async <T>(kind: Kind, f: () => Promise<T>): Promise<T> => {
    sent[kind]++;
    const t0 = performance.now();
    const r = await f();
    lat[kind].push(performance.now() - t0);
    return r;
  };
  /** What the bot should have sent long ago: a missing one is a failure of the run, not a hang. */
  const within = <T>(p: Promise<T>, what: string): Promise<T> =>
    Promise.race([
      p,
      delay(20_000).then(() => {
        throw new Error(`no ${what} within 20 s`);
      }),
    ]);
  const created: { array: string; name: string }[] = [];
  const destroyed: { array: string; name: string }[] = [];
  let fsSeq = 0;

  let lastApproval = 0;
  let approvalsAnsweredWithoutDialog = 0;
  const approval = async (): Promise<void> => {
    const target = destroyed.splice(Math.floor(random() * destroyed.length), 1)[0];
    if (!target) return;
    const requester = pick(admins);
    const approver = pick(admins.filter((a) => a !== requester));
    const mentions = new RegExp(`\\b${target.name}\\b`);
    const card = stub.waitForCall(
      (c) =>
        c.method === "chat.postMessage" &&
        buttonValue(c.args, ACTIONS.approve) !== undefined &&
        mentions.test(JSON.stringify(c.args)),
    );
    const ack = await timed("eradicate", () =>
      command(requester, `fs eradicate ${target.name} --array ${target.array}`),
    );
    if (buttonValue(ack, ACTIONS.approve) === undefined && !JSON.stringify(ack).includes("approval")) return;
    const posted = await within(card, "the approval card");
    const pending = buttonValue(posted.args["blocks"], ACTIONS.approve);
    if (!pending) throw new Error("the approval card has no Approve button");
    const opened = stub.waitForCall(
      (c) => c.method === "views.open" && JSON.stringify(c.args).includes(pending),
    );
    const updated = stub.waitForCall((c) => c.method === "chat.update" && c.args["ts"] === posted.ts);
    await timed("approve", async () => {
      // The click opens the typed-name dialog, or, when the array cannot confirm the plan still holds (a fault,
      // or the object changed), answers at once or closes the card: each is an answer, silence is not.
      let answeredInstead: (body: Record<string, unknown>) => void = () => {};
      const answeredClick = new Promise<Record<string, unknown>>((r) => {
        answeredInstead = r;
      });
      await click(approver, ACTIONS.approve, pending, posted.ts, false, "maybe", answeredInstead);
      const first = await within(
        Promise.race([
          opened.then((call) => ({ open: call })),
          answeredClick.then(() => ({ open: undefined })),
          updated.then(() => ({ open: undefined })),
        ]),
        "views.open, an answer or a card update after an Approve click",
      );
      const open = first.open;
      if (open === undefined) {
        approvalsAnsweredWithoutDialog++;
        return;
      }
      const view = open.args["view"] as { private_metadata: string };
      // Double submits: the same person submitting the typed name twice.
      const submits = random() < 0.33 ? 2 : 1;
      await Promise.all(
        Array.from({ length: submits }, () => submit(approver, view.private_metadata, target.name)),
      );
      await within(updated, "chat.update after an approval");
    });
  };

  const op = async (): Promise<void> => {
    const r = random();
    const live = names.filter((n) => n !== down);
    // Approvals are paced below Slack's own limits (chat.update is Tier 3: 50 a minute per workspace), which
    // the bot's paced client honours: more would measure Slack's rate limits, not the bot.
    const approvalDue = destroyed.length > 0 && performance.now() - lastApproval >= APPROVAL_EVERY_MS;
    if (approvalDue) {
      lastApproval = performance.now();
      await approval();
    } else if (r < 0.5) {
      const array = pick(names);
      const text = pick([
        `fs list --array ${array}`,
        `space --array ${array}`,
        `fs show home --array ${array}`,
      ]);
      await timed("read", () => command(pick(operators), text));
    } else if (r < 0.77 || created.length === 0) {
      const array = pick(live);
      const name = `ld-${++fsSeq}`;
      const body = await timed("create", () =>
        command(pick(operators), `fs create ${name} 1T --nfs --array ${array}`),
      );
      if (String(body["response_type"]) === "in_channel") created.push({ array, name });
    } else {
      const target = created.splice(Math.floor(random() * created.length), 1)[0];
      if (!target) return;
      const user = pick(operators);
      const prompt = await timed("destroy", () =>
        command(user, `fs destroy ${target.name} --array ${target.array}`),
      );
      const pending = buttonValue(prompt, ACTIONS.confirm);
      if (!pending) return;
      // A third of confirmations are double clicks: two deliveries at once.
      const clicks = random() < 0.33 ? 2 : 1;
      const results = await timed("confirm", () =>
        Promise.all(Array.from({ length: clicks }, () => click(user, ACTIONS.confirm, pending, "1.1", true))),
      );
      if (results.some((b) => JSON.stringify(b).includes("Done: destroy"))) destroyed.push(target);
    }
  };

  // Drive: one operation every 1/rate seconds for `seconds`; operations overlap freely.
  const inflight = new Set<Promise<void>>();
  const failures: string[] = [];
  const interval = 1000 / o.rate;
  const t0 = performance.now();
  let rssWarm = 0;
  // Faults during the run: session expiry, 5xx bursts and connection resets on any method, round robin.
  let faultTick = 0;
  const faultTimer = o.faults
    ? setInterval(() => {
        const sim = sims[faultTick++ % Math.max(1, sims.length - 1)];
        if (!sim) return;
        if (faultTick % 3 === 0) sim.control.invalidateSessions();
        else if (faultTick % 3 === 1) sim.control.failRequests({ status: 503, count: 4 });
        else sim.control.resetConnections({ count: 2 });
      }, 500)
    : undefined;
  for (let i = 0; performance.now() - t0 < o.seconds * 1000; i++) {
    const p = op().catch((err: unknown) => {
      failures.push(String(err));
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    if (rssWarm === 0 && performance.now() - t0 > Math.min(10_000, (o.seconds * 1000) / 3)) {
      rssWarm = process.memoryUsage().rss;
    }
    const next = t0 + (i + 1) * interval;
    await delay(Math.max(0, next - performance.now()));
  }
  clearInterval(faultTimer);
  log(`sending stopped; waiting for ${inflight.size} operations in flight`);
  await Promise.race([Promise.all(inflight), delay(o.drainMs ?? 60_000)]);
  const rssEnd = process.memoryUsage().rss;
  const unanswered = waiting.size;

  await app.stop();
  await pool.close();
  await stub.close();
  const reconciliation = reconcile(sims, audit.records as AuditRecord[], failures);
  for (const s of sims) await s.close();

  const latencyMs = Object.fromEntries(
    Object.entries(lat).map(([k, xs]) => [
      k,
      { p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99), n: xs.length },
    ]),
  ) as LoadReport["latencyMs"];
  return {
    sent,
    answered,
    unanswered,
    latencyMs,
    reconciliation,
    slack429: stub.throttled,
    approvalsWithoutDialog: approvalsAnsweredWithoutDialog,
    rssMiB: { afterWarmUp: rssWarm / 2 ** 20, end: rssEnd / 2 ** 20 },
    wallSeconds: (performance.now() - started) / 1000,
  };
}
