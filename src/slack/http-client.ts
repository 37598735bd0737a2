/**
 * The HTTP client every call to Slack goes through: the Web API client's calls and Bolt's respond() to
 * response_urls. Node's global fetch keeps connections alive but opens as many as there are calls in flight,
 * per origin, without limit: under 100 commands/s the bot held 115–485 sockets to Slack, each ~41 KiB of
 * native memory on loopback (a TLS one to slack.com costs ~100 KiB), which malloc keeps after they close.
 * Here each origin (slack.com, hooks.slack.com) gets at most `connections` sockets, kept alive while in use
 * and closed after `keepAliveMs` idle; calls beyond them queue for a free socket, inside the WebClient's
 * own time-out. Figures: docs/benchmarks.md, "Where the bot's memory goes at this load".
 */
import { Agent, fetch as undiciFetch } from "undici";

/**
 * Sockets per Slack origin. Calls in flight are the call rate times Slack's latency: ~150 calls/s (answers
 * and Web API calls at 100 commands/s) × 0.3 s is ~45. With 32, a load run on a busy machine fell further
 * behind than without a cap (its fake Slack slowed down); 64 leaves room.
 */
export const SLACK_CONNECTIONS = 64;
const KEEP_ALIVE_MS = 4_000;

export interface SlackHttp {
  /** A fetch for the WebClient's `fetch` option (Bolt's respond() uses the same). */
  readonly fetch: typeof globalThis.fetch;
  /** Closes the sockets (idempotent). */
  close(): Promise<void>;
}

export function createSlackHttp(o: { connections?: number; keepAliveMs?: number } = {}): SlackHttp {
  const agent = new Agent({
    connections: o.connections ?? SLACK_CONNECTIONS,
    keepAliveTimeout: o.keepAliveMs ?? KEEP_ALIVE_MS,
  });
  const fetch = ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher: agent })) as unknown as typeof globalThis.fetch;
  // Once: the app's stop() may run twice (a test's own stop, then its clean-up), and undici refuses a second close.
  let closed: Promise<void> | undefined;
  return { fetch, close: () => (closed ??= agent.close()) };
}
