/**
 * The load test's engine: many simulated arrays with injected faults, the real Slack app in HTTP mode with the
 * real pipeline and array pool, and a driver sending signed commands and clicks at a fixed rate from many users
 * (reads, creates, confirmed destroys with double clicks, approved eradications with double submits). At the
 * end it reconciles what the arrays did with the bot's audit records (reconcile.ts).
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { ACTIONS } from "../../src/core/pipeline-deps.js";
import { type BotSample, startBot } from "./bot.js";
import { startFleet } from "./fleet.js";
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
  /** Run the bot in a child process, so the memory reported is the bot's alone (bot.ts); default true. */
  botInChild?: boolean;
  /** Start that child with the image's heap settings (src/ops/heap-options.ts); default true. */
  heapOptions?: boolean;
  /** Run the simulated arrays in a child process, so this process's memory is the bot's (fleet.ts). */
  fleetInChild?: boolean;
  /** Where to write heap snapshots of the bot's process, after warm-up and at the end (warm/end.heapsnapshot). */
  heapSnapshotDir?: string;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  n: number;
}

export type Kind = "read" | "create" | "destroy" | "confirm" | "eradicate" | "approve";

export interface LoadReport {
  sent: Record<Kind, number>;
  answered: number;
  unanswered: number;
  latencyMs: Record<Kind, Percentiles>;
  /** The approve click with the name in the card to the card replaced; through the dialog: click to dialog, submit to card updated. */
  approveStepsMs: {
    inCard: Percentiles;
    dialog: Percentiles;
    carriedOut: Percentiles;
    /** Whole approvals that met no 429 from Slack on their dialog or card update. */
    unthrottled: Percentiles;
  };
  /** Records in the bot's in-memory pending store at the end (open ones and the finished it keeps). */
  pendingRecords: number;
  /** What the driver still waits for at the end (0 each when nothing leaks). */
  leftListening: { stubWaits: number; optional: number; waiting: number };
  reconciliation: Reconciliation;
  slack429: number;
  slack429ByMethod: Record<string, number>;
  /** Approvals the bot answered without carrying them out (a fault, or a stale plan voided). */
  approvalsNotCarriedOut: number;
  /** This process's memory (the bot, the driver and the fake Slack; the arrays too unless fleetInChild). */
  memory: MemoryReport;
  /** The RSS of the arrays' process at the end, when they run in a child. */
  fleetRssMiB?: number;
  wallSeconds: number;
}

export type MemorySample = BotSample;

export interface MemoryReport {
  /** Whose memory: the bot's process alone (botInChild), or the bot's with the driver and the fake Slack. */
  scope?: string;
  /** Warm-up: the first third of the run, at most 120 s (the count-bounded caches fill in it). */
  warmUpSeconds: number;
  /** RSS when warm-up ends, and the highest RSS after it. */
  rssAfterWarmUpMiB: number;
  rssPeakAfterWarmUpMiB: number;
  rssEndMiB: number;
  /** RSS (and heap used) at the end of sending minus at its middle, each the median of 5 samples around it. */
  rssGrowthLastHalfMiB: number;
  heapGrowthLastHalfMiB: number;
  /** Heap used right after a full GC (needs node --expose-gc) at the end of warm-up, the middle and the end. */
  liveHeapMiB?: { warm: number; half: number; end: number };
  /** One sample a second while sending. */
  samples: MemorySample[];
  /** V8's spaces at the end (committed and used MiB). */
  spaces?: { name: string; committedMiB: number; usedMiB: number }[];
}

/** The memory figures from samples taken once a second over `seconds` of sending. */
export function memoryReport(samples: readonly MemorySample[], seconds: number): MemoryReport {
  const warmUpSeconds = Math.min(120, seconds / 3);
  const around = (t: number, f: (s: MemorySample) => number): number => {
    const near = [...samples].sort((a, b) => Math.abs(a.t - t) - Math.abs(b.t - t)).slice(0, 5);
    const xs = near.map(f).sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)] ?? 0;
  };
  const after = samples.filter((s) => s.t >= warmUpSeconds);
  const rss = (s: MemorySample) => s.rssMiB;
  const heap = (s: MemorySample) => s.heapUsedMiB;
  return {
    warmUpSeconds,
    rssAfterWarmUpMiB: after[0]?.rssMiB ?? 0,
    rssPeakAfterWarmUpMiB: Math.max(0, ...after.map(rss)),
    rssEndMiB: samples.at(-1)?.rssMiB ?? 0,
    rssGrowthLastHalfMiB: around(seconds, rss) - around(seconds / 2, rss),
    heapGrowthLastHalfMiB: around(seconds, heap) - around(seconds / 2, heap),
    samples: [...samples],
  };
}

const SECRET = "load-signing-secret-000000";
/** The share of approvers who leave the card's box empty and type the name in the dialog the click opens. */
const DIALOG_SHARE = 0.1;
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

function pcts(xs: number[]): Percentiles {
  return { p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99), n: xs.length };
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const log = o.log ?? (() => {});
  const random = rng(o.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const started = performance.now();

  const fleet = await startFleet({ arrays: o.arrays, faults: o.faults, child: o.fleetInChild === true });
  const names = fleet.arrays.map((a) => a.name);
  const admins = Array.from({ length: Math.max(2, Math.ceil(o.users / 4)) }, (_, i) => `UADM${i}`);
  const operators = Array.from({ length: Math.max(1, o.users - admins.length) }, (_, i) => `UOPS${i}`);
  const down = fleet.down;

  const stub = await SlackStub.start({ rate429: o.faults ? 0.05 : 0, random });
  const bot = await startBot({
    arrays: fleet.arrays,
    admins,
    operators,
    signingSecret: SECRET,
    slackApiUrl: stub.apiUrl,
    child: o.botInChild !== false,
    heapOptions: o.heapOptions !== false,
  });
  const port = bot.port;
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
    /** Ends the wait for a "maybe" answer (the modal opened instead). */
    maybeUntil?: AbortSignal,
    /** What the clicker typed in the card's own box (the name an eradication needs). */
    typedInCard?: string,
  ) => {
    const id = `k${++seq}`;
    if (answered === "maybe" && maybeAnswer) {
      optional.set(id, maybeAnswer);
      maybeUntil?.addEventListener("abort", () => optional.delete(id), { once: true });
    }
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
      ...(typedInCard === undefined
        ? {}
        : {
            state: {
              values: { card_typed: { typed_text: { type: "plain_text_input", value: typedInCard } } },
            },
          }),
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

  /**
   * An approval: most approvers type the name in the card's box and click Approve once (click to card replaced);
   * one in ten leaves the box empty and types it in the dialog the click opens (click to dialog, then submit to
   * card updated).
   */
  const approveSteps = {
    inCard: [] as number[],
    dialog: [] as number[],
    carriedOut: [] as number[],
    unthrottled: [] as number[],
  };
  let lastApproval = 0;
  let approvalsNotCarriedOut = 0;
  const approval = async (): Promise<void> => {
    const target = destroyed.splice(Math.floor(random() * destroyed.length), 1)[0];
    if (!target) return;
    const requester = pick(admins);
    const approver = pick(admins.filter((a) => a !== requester));
    const mentions = new RegExp(`\\b${target.name}\\b`);
    const viaDialog = random() < DIALOG_SHARE;
    // Every wait below stops listening when this approval ends, whichever way it ends.
    const done = new AbortController();
    try {
      const card = stub.waitForCall(
        (c) =>
          c.method === "chat.postMessage" &&
          buttonValue(c.args, ACTIONS.approve) !== undefined &&
          mentions.test(JSON.stringify(c.args)),
        done.signal,
      );
      const ack = await timed("eradicate", () =>
        command(requester, `fs eradicate ${target.name} --array ${target.array}`),
      );
      if (buttonValue(ack, ACTIONS.approve) === undefined && !JSON.stringify(ack).includes("approval"))
        return;
      const posted = await within(card, "the approval card");
      const pending = buttonValue(posted.args["blocks"], ACTIONS.approve);
      if (!pending) throw new Error("the approval card has no Approve button");
      const opened = stub.waitForCall(
        (c) => c.method === "views.open" && JSON.stringify(c.args).includes(pending),
        done.signal,
      );
      const updated = stub.waitForCall(
        (c) => c.method === "chat.update" && c.args["ts"] === posted.ts,
        done.signal,
      );
      // Slack's own 429s on this approval's dialog or card update: the bot must wait the Retry-After (1 s).
      let throttled = false;
      stub.onThrottled(
        (c) =>
          (c.method === "views.open" && JSON.stringify(c.args).includes(pending)) ||
          (c.method === "chat.update" && c.args["ts"] === posted.ts),
        () => {
          throttled = true;
        },
        done.signal,
      );
      const t0 = performance.now();
      await timed("approve", async () => {
        // The click's answers through its response_url: the card replaced (replace_original), or a private
        // answer: "already approved" to a second click, or why nothing was done (a fault, a voided plan).
        let replaced: (body: Record<string, unknown>) => void = () => {};
        let refused: (body: Record<string, unknown>) => void = () => {};
        const cardReplaced = new Promise<Record<string, unknown>>((r) => {
          replaced = r;
        });
        const answeredInstead = new Promise<Record<string, unknown>>((r) => {
          refused = r;
        });
        const onAnswer = (body: Record<string, unknown>) => {
          if (body["replace_original"] === true) replaced(body);
          else if (!/already/i.test(JSON.stringify(body))) refused(body);
        };
        // Double clicks: the same person clicking Approve twice.
        const clicks = random() < 0.33 ? 2 : 1;
        await Promise.all(
          Array.from({ length: clicks }, () =>
            click(
              approver,
              ACTIONS.approve,
              pending,
              posted.ts,
              false,
              "maybe",
              onAnswer,
              done.signal,
              viaDialog ? undefined : target.name,
            ),
          ),
        );
        const first = await within(
          Promise.race([
            opened.then((call) => ({ open: call, ended: false })),
            cardReplaced.then(() => ({ open: undefined, ended: true })),
            updated.then(() => ({ open: undefined, ended: true })),
            answeredInstead.then(() => ({ open: undefined, ended: false })),
          ]),
          "views.open, an answer or a card update after an Approve click",
        );
        if (first.ended && !viaDialog) {
          approveSteps.inCard.push(performance.now() - t0);
          return;
        }
        const open = first.open;
        if (open === undefined) {
          approvalsNotCarriedOut++;
          return;
        }
        const t1 = performance.now();
        approveSteps.dialog.push(t1 - t0);
        const view = open.args["view"] as { private_metadata: string };
        await submit(approver, view.private_metadata, target.name);
        await within(updated, "chat.update after an approval");
        approveSteps.carriedOut.push(performance.now() - t1);
      });
      if (!throttled) approveSteps.unthrottled.push(performance.now() - t0);
    } finally {
      done.abort();
    }
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
  let warm = false;
  await bot.start();
  let half = false;
  // Faults during the run: session expiry, 5xx bursts and connection resets on any method, round robin.
  await fleet.startFaults();
  for (let i = 0; performance.now() - t0 < o.seconds * 1000; i++) {
    const p = op().catch((err: unknown) => {
      failures.push(String(err));
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    if (!warm && performance.now() - t0 > Math.min(120_000, (o.seconds * 1000) / 3)) {
      warm = true;
      await bot.mark();
      if (o.heapSnapshotDir)
        log(`heap snapshot: ${await bot.snapshot(join(o.heapSnapshotDir, "warm.heapsnapshot"))}`);
    }
    if (!half && performance.now() - t0 > (o.seconds * 1000) / 2) {
      half = true;
      await bot.mark();
    }
    const next = t0 + (i + 1) * interval;
    await delay(Math.max(0, next - performance.now()));
  }
  await bot.mark();
  await fleet.stopFaults();
  log(`sending stopped; waiting for ${inflight.size} operations in flight`);
  await Promise.race([Promise.all(inflight), delay(o.drainMs ?? 60_000)]);
  const unanswered = waiting.size;
  if (o.heapSnapshotDir)
    log(`heap snapshot: ${await bot.snapshot(join(o.heapSnapshotDir, "end.heapsnapshot"))}`);

  const stopped = await bot.stop();
  await stub.close();
  const reconciliation = reconcile(await fleet.effects(), stopped.entries, failures);
  const live = stopped.memory.liveHeapMiB;
  const fleetRss = o.fleetInChild === true ? (await fleet.memory()).rss / 2 ** 20 : undefined;
  await fleet.close();

  const latencyMs = Object.fromEntries(
    Object.entries(lat).map(([k, xs]) => [k, pcts(xs)]),
  ) as LoadReport["latencyMs"];
  return {
    sent,
    answered,
    unanswered,
    latencyMs,
    reconciliation,
    slack429: stub.throttled,
    slack429ByMethod: Object.fromEntries(stub.throttledBy),
    approvalsNotCarriedOut,
    approveStepsMs: {
      inCard: pcts(approveSteps.inCard),
      dialog: pcts(approveSteps.dialog),
      carriedOut: pcts(approveSteps.carriedOut),
      unthrottled: pcts(approveSteps.unthrottled),
    },
    pendingRecords: stopped.pendingRecords,
    leftListening: { stubWaits: stub.waits, optional: optional.size, waiting: waiting.size },
    memory: {
      ...memoryReport(stopped.memory.samples, o.seconds),
      ...(stopped.memory.spaces ? { spaces: stopped.memory.spaces } : {}),
      ...(live.length === 3
        ? { liveHeapMiB: { warm: live[0] ?? 0, half: live[1] ?? 0, end: live[2] ?? 0 } }
        : {}),
      scope: o.botInChild !== false ? "bot" : "bot, driver and fake Slack",
    },
    ...(fleetRss === undefined ? {} : { fleetRssMiB: fleetRss }),
    wallSeconds: (performance.now() - started) / 1000,
  };
}
