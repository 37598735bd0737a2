/**
 * The `array_pool:` settings: what the session pool may hold open across all arrays together. At a thousand
 * arrays the per-array costs (a socket or two each, a session each, start-up checks all at once) add up; these
 * bound them. Defaults: src/flashblade/pool.ts POOL_DEFAULTS.
 */
import { z } from "zod";
import { parseDuration } from "../vocabulary.js";

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const ms = parseDuration(v);
      if (ms === undefined) {
        ctx.addIssue({ code: "custom", message: `"${v}" is not a duration; write e.g. 4s, 10m` });
        return z.NEVER;
      }
      return ms;
    });

export const arrayPoolSchema = z.strictObject({
  /**
   * Sockets open to all arrays together. Past it a new connection waits for one to close, and the sockets of the
   * array idle longest are closed for it. Each TLS socket costs ~100 KiB of native memory.
   */
  max_sockets: z.int().min(1).max(100_000).default(256),
  /** A socket unused this long is closed; the next call to that array opens a new one. */
  idle_socket: duration("4s"),
  /** An array nothing was sent to for this long is logged out; the next call logs in again (once). */
  idle_session: duration("10m"),
  /** Arrays asked at once whether they answer (start-up, `/array arrays`). */
  checks_at_once: z.int().min(1).max(1000).default(16),
});

export type ArrayPoolConfig = z.output<typeof arrayPoolSchema>;
export const DEFAULT_ARRAY_POOL: ArrayPoolConfig = arrayPoolSchema.parse({});
