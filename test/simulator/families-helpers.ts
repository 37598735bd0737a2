/** A demo array on "1.0-1.12,2.0-2.28" over HTTPS with a clock the test moves, for the 2.x-only family tests. */
import { afterEach, expect } from "vitest";
import { openSim, type Reply, type SimClient } from "./server-helpers.js";

export const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
// biome-ignore lint/suspicious/noExplicitAny: free-form JSON items
export type Item = Record<string, any>;

export function refusal(r: Reply): string {
  const body = r.json() as { errors?: { message?: string; context?: string }[] };
  return body.errors?.[0]?.message ?? "";
}

/** Call at the top of a test file: each test opens its own array; it is closed and the clock reset after it. */
export function familySim() {
  let c: SimClient | undefined;
  let now = T0;
  afterEach(async () => {
    await c?.close();
    c = undefined;
    now = T0;
  });
  const sim = () => c as SimClient;
  const api = (method: string, path: string, h: Record<string, string>, body?: unknown): Promise<Reply> =>
    sim().call(method, `/api/2.28${path}`, {
      headers: h,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    async open(): Promise<{ c: SimClient; h: Record<string, string> }> {
      c = await openSim({
        versions: "1.0-1.12,2.0-2.28",
        scenario: "demo",
        clock: () => now,
        controlPath: true,
        sessionIdleMs: 10 * DAY,
      });
      const token = await c.login();
      return { c, h: { "x-auth-token": token, "content-type": "application/json" } };
    },
    api,
    async items(path: string, h: Record<string, string>): Promise<Item[]> {
      const r = await api("GET", path, h);
      expect(r.status, r.text).toBe(200);
      return (r.json() as { items: Item[] }).items;
    },
    /** A control operation's answer (`POST /_control/<op>`). */
    async control(op: string, body: unknown): Promise<Item> {
      const r = await sim().call("POST", `/_control/${op}`, {
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(r.status, r.text).toBe(200);
      return r.json() as Item;
    },
  };
}
