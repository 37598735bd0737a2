/**
 * The V8 heap settings the bot runs with: the image sets them as NODE_OPTIONS (Dockerfile, checked equal by
 * test/container/heap-options.test.ts) and the load test starts the bot's process with them, so the memory it
 * reports is the memory a deployment sees.
 *
 * Why: with no limit V8 sizes its heap for the machine (a 4 GiB limit here) and, under the allocation rate of
 * 100 commands/s, keeps a young generation of 128 MiB and grows the old one to four times what is live: 369 MiB
 * committed for 77 MiB used in a 60-second load run. A 16 MiB young generation and an old-space limit below
 * 2 GiB (which lowers V8's growing factor from 4 to about 1.35) hold the committed heap near the live one; the
 * limit is five times the live heap of 200 arrays under load (~75 MiB), and a fleet that needs more raises it
 * in NODE_OPTIONS. Figures: docs/benchmarks.md, "Memory".
 */
export const HEAP_OPTIONS = ["--max-semi-space-size=8", "--max-old-space-size=384"] as const;
