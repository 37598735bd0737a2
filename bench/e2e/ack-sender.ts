/**
 * bench/e2e.ts's sender of slash commands, in a process of its own: it plays Slack's sender (rounds of signed
 * commands to the bot and to a bare server, timing each ack) and forks Slack's answer side (`--slack-child`:
 * the Web API and response_url), so the process timing the acks receives nothing else. Not run on its own.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { SlackStub, signedForm } from "../load/slack-stub.js";
import { percentile } from "../report/result.js";
import { nextMessage } from "./ipc.js";

const ms = (t0: number) => performance.now() - t0;
const WARM_UP_ROUNDS = 5;

/**
 * Slack's answer side (`--slack-child`): the Web API and response_url in a process of their own, as they are
 * in Slack. The sender that times the acks then receives nothing but acks, in both the bot's and the bare
 * rounds; each answer's arrival is stamped here and sent back once the round's answers are all in.
 */
async function slackChildMain(): Promise<void> {
  const stub = await SlackStub.start();
  const now = () => performance.timeOrigin + performance.now();
  let expected = new Set<string>();
  let arrived: Record<string, number> = {};
  stub.events.on("response", (id: string) => {
    if (!expected.delete(id)) return;
    arrived[id] = now();
    if (expected.size === 0) process.send?.({ arrived });
  });
  process.on("message", (m: { socketUrl?: string; expect?: string[] }) => {
    if (m.socketUrl !== undefined) stub.socketUrl = m.socketUrl;
    if (m.expect !== undefined) {
      expected = new Set(m.expect);
      arrived = {};
    }
    process.send?.({ armed: true });
  });
  process.on("disconnect", () => void stub.close().then(() => process.exit(0)));
  process.send?.({ apiUrl: stub.apiUrl, respondBase: stub.responseUrl("") });
}

/** Sender mode: plays Slack. Sends rounds of `n` concurrent signed commands; reports ack and answer times. */
async function senderMain(): Promise<void> {
  const slack: ChildProcess = fork(new URL(import.meta.url).pathname, ["--slack-child"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { apiUrl, respondBase } = await nextMessage<{ apiUrl: string; respondBase: string }>(slack);
  process.send?.({ apiUrl });
  type Job = { port: number; barePort: number; secret: string; n: number; rounds: number };
  const job = await new Promise<Job>((r) => process.once("message", (m) => r(m as Job)));
  const epoch = (t: number) => performance.timeOrigin + t;
  /** Asks the Slack child and resolves with its reply of the given kind (`armed`, `arrived`). */
  const fromSlack = <T>(kind: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!(kind in m)) return;
        slack.off("message", on);
        resolve(m[kind] as T);
      };
      slack.on("message", on);
    });
  /** Arms the Slack child for this round's ids; the promise returned holds each id's arrival time. */
  const expectAnswers = async (ids: string[]) => {
    const armed = fromSlack<true>("armed");
    slack.send({ expect: ids });
    await armed;
    // Wrapped: an async function returning the bare promise would have its caller wait for the answers.
    return { arrivals: fromSlack<Record<string, number>>("arrived") };
  };
  const form = (i: number, id: string) => ({
    command: "/array",
    text: "fs list",
    user_id: `U${i}`,
    channel_id: "C1",
    trigger_id: `t-${randomUUID()}`,
    response_url: `${respondBase}${id}`,
  });
  // The same signed request for the bot and the bare server, built and signed before the clock starts:
  // Slack's own work is neither's latency.
  const post = async (port: number, signed: { body: string; headers: Record<string, string> }) => {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: "POST", ...signed });
    await res.text();
    return { t0, ack: ms(t0) };
  };
  const signedRound = (tag: string) => {
    const ids = Array.from({ length: job.n }, () => `${tag}${randomUUID()}`);
    return { ids, signed: ids.map((id, i) => signedForm(job.secret, form(i, id))) };
  };
  const botRound = async () => {
    const { ids, signed } = signedRound("r");
    const { arrivals } = await expectAnswers(ids);
    const sent = await Promise.all(signed.map((s) => post(job.port, s)));
    const arrived = await arrivals;
    return sent.map((s, i) => ({ ack: s.ack, answer: (arrived[ids[i] as string] as number) - epoch(s.t0) }));
  };
  const bareRound = async () => {
    const { signed } = signedRound("b");
    return (await Promise.all(signed.map((s) => post(job.barePort, s)))).map((s) => s.ack);
  };
  const out = {
    ack50: [] as number[],
    ack99: [] as number[],
    ans50: [] as number[],
    ans99: [] as number[],
    bare99: [] as number[],
  };
  const collected = async () => {
    const done = new Promise<void>((r) => process.once("message", () => r()));
    process.send?.({ gc: true });
    await done;
  };
  // Warm-up: the bot is a long-running server, and a freshly started one is still compiling its request path.
  for (let r = 0; r < WARM_UP_ROUNDS; r++) {
    await botRound();
    await bareRound();
  }
  for (let r = 0; r < job.rounds; r++) {
    // Which goes first alternates, so neither always follows the other's leftovers.
    let got: Awaited<ReturnType<typeof botRound>>;
    let bare: number[];
    await collected();
    if (r % 2 === 0) {
      got = await botRound();
      await collected();
      bare = await bareRound();
    } else {
      bare = await bareRound();
      await collected();
      got = await botRound();
    }
    const acks = got.map((g) => g.ack);
    const answers = got.map((g) => g.answer);
    out.ack50.push(percentile(acks, 50));
    out.ack99.push(percentile(acks, 99));
    out.bare99.push(percentile(bare, 99));
    out.ans50.push(percentile(answers, 50));
    out.ans99.push(percentile(answers, 99));
  }
  // Socket Mode: this process is Slack's WebSocket endpoint; an ack is the app's `{envelope_id}` coming back.
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((r) => wss.once("listening", () => r()));
  const armed = fromSlack<true>("armed");
  slack.send({ socketUrl: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link/?ticket=bench` });
  await armed;
  const acked = new Map<string, () => void>();
  const connected = new Promise<WebSocket>((resolve) =>
    wss.on("connection", (ws) => {
      ws.on("message", (data) => {
        const id = (JSON.parse(String(data)) as { envelope_id?: string }).envelope_id ?? "";
        acked.get(id)?.();
        acked.delete(id);
      });
      ws.send(JSON.stringify({ type: "hello", num_connections: 1, connection_info: { app_id: "A1" } }));
      resolve(ws);
    }),
  );
  process.send?.(out);
  await new Promise((r) => process.once("message", r));
  const ws = await connected;
  const envelopes = async () => {
    const ids = Array.from({ length: job.n }, () => randomUUID());
    const { arrivals } = await expectAnswers(ids.map((e) => `s${e}`));
    const acks = await Promise.all(
      ids.map(async (envelope_id, i) => {
        const done = new Promise<void>((r) => acked.set(envelope_id, r));
        const payload = { ...form(i, `s${envelope_id}`), team_id: "T1" };
        const t0 = performance.now();
        ws.send(
          JSON.stringify({ envelope_id, type: "slash_commands", payload, accepts_response_payload: true }),
        );
        await done;
        return ms(t0);
      }),
    );
    await arrivals;
    return acks;
  };
  const socket = { sack50: [] as number[], sack99: [] as number[] };
  for (let r = 0; r < WARM_UP_ROUNDS; r++) await envelopes();
  for (let r = 0; r < job.rounds; r++) {
    const acks = await envelopes();
    socket.sack50.push(percentile(acks, 50));
    socket.sack99.push(percentile(acks, 99));
  }
  process.send?.(socket);
  process.on("disconnect", () => {
    for (const c of wss.clients) c.terminate();
    wss.close();
    slack.disconnect();
    process.exit(0);
  });
}

if (process.argv.includes("--slack-child")) await slackChildMain();
else await senderMain();
