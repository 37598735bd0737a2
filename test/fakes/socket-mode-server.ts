/**
 * A fake Slack Socket Mode endpoint: a local WebSocket server speaking Slack's envelope protocol. The app
 * gets its ws:// URL from apps.connections.open on the fake Web API; on connect the server says hello;
 * every envelope is answered by the app with `{envelope_id, payload}`, which `send` resolves with.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export type EnvelopeType = "slash_commands" | "interactive" | "events_api";

export interface Ack {
  envelope_id: string;
  payload?: Record<string, unknown>;
}

export class FakeSocketMode {
  private socket: WebSocket | undefined;
  private readonly events = new EventEmitter();
  readonly acks: Ack[] = [];

  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    wss.on("connection", (ws) => {
      this.socket = ws;
      ws.on("message", (data) => {
        const ack = JSON.parse(String(data)) as Ack;
        this.acks.push(ack);
        this.events.emit(`ack:${ack.envelope_id}`, ack);
      });
      ws.on("close", () => {
        if (this.socket === ws) this.socket = undefined;
        this.events.emit("closed");
      });
      ws.send(
        JSON.stringify({
          type: "hello",
          num_connections: 1,
          debug_info: { host: "fake" },
          connection_info: { app_id: "A1" },
        }),
      );
      this.events.emit("connected");
    });
  }

  static async start(): Promise<FakeSocketMode> {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
    const { port } = wss.address() as AddressInfo;
    return new FakeSocketMode(wss, `ws://127.0.0.1:${port}/link/?ticket=fake`);
  }

  get connected(): boolean {
    return this.socket !== undefined;
  }

  waitConnected(): Promise<void> {
    if (this.socket !== undefined) return Promise.resolve();
    return new Promise((resolve) => this.events.once("connected", () => resolve()));
  }

  waitClosed(): Promise<void> {
    if (this.socket === undefined) return Promise.resolve();
    return new Promise((resolve) => this.events.once("closed", () => resolve()));
  }

  /** Sends one envelope; resolves with the app's acknowledgement. */
  send(
    type: EnvelopeType,
    payload: Record<string, unknown>,
    opts: { envelopeId?: string; retryAttempt?: number } = {},
  ): Promise<Ack> {
    const ws = this.socket;
    if (ws === undefined) return Promise.reject(new Error("no socket connected"));
    const envelope_id = opts.envelopeId ?? randomUUID();
    const acked = new Promise<Ack>((resolve) => this.events.once(`ack:${envelope_id}`, resolve));
    ws.send(
      JSON.stringify({
        envelope_id,
        type,
        payload,
        accepts_response_payload: type !== "events_api",
        retry_attempt: opts.retryAttempt ?? 0,
        retry_reason: opts.retryAttempt ? "timeout" : "",
      }),
    );
    return acked;
  }

  /** Slack's "please reconnect" message. */
  sendDisconnect(reason = "refresh_requested"): void {
    this.socket?.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake" } }));
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
