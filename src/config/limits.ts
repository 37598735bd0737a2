/**
 * What one person can make the bot do: commands per minute with a burst (a token bucket per chat user),
 * commands running at once, and array requests one command may send. 0 turns the first three off.
 */
import { z } from "zod";

export const limitsConfigSchema = z.strictObject({
  /** Commands a person may send at once before the per-minute rate applies (the bucket's size). */
  burst: z.int().min(0).max(10_000).default(30),
  /** Commands a person may send per minute, sustained (the bucket refills at this rate). */
  per_minute: z.number().min(0).max(60_000).default(60),
  /** Commands of one person running at the same time. */
  concurrent: z.int().min(0).max(1000).default(5),
  /** Array requests one command may send, every array of a fan-out counted; past it the command is stopped. */
  array_requests_per_command: z.int().min(1).max(1_000_000).default(1000),
});

export type LimitsConfig = z.output<typeof limitsConfigSchema>;

export const DEFAULT_LIMITS: LimitsConfig = limitsConfigSchema.parse({});
