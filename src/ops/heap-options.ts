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

/**
 * glibc's allocator settings the image runs the bot with: environment variables, read by glibc when the process
 * starts (no Node flag or call can set them later). The image sets them (Dockerfile, checked equal by
 * test/container/heap-options.test.ts) and the load test starts the bot's process with them.
 *
 * Why: glibc serves a block of 128 KiB or more with its own mapping and, once such a block is freed, raises that
 * threshold to the block's size (up to 32 MiB). Under load the threshold climbs, and then V8's compiler threads'
 * zones and large response buffers come from the arenas, where freed space stays mapped in holes. With the
 * threshold fixed at 64 KiB, blocks that size go back to the system when freed. A modest gain, measured: in
 * 10-minute loads (docs/benchmarks.md, "A steady fleet, Slack's pace and the allocator") the threads' arenas
 * held 8–15 MiB instead of ~24, and the bot's RSS after warm-up was 228–236 MiB in the three runs with it
 * against 244–249 in the six without; at the end of the same-hour pair, 252 against 255 MiB.
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "65536" };

/**
 * The slab Node cuts small Buffers from. Node 24 made it 64 KiB (8 KiB before): a few bytes kept for long keep
 * the whole slab. Every TLS socket keeps its ALPN list ("http/1.1", 9 bytes) for its whole life, and a socket
 * opened after the slab it was cut from moved on pins that slab: with 200 arrays, sockets replaced all the time
 * by idle time-outs and faults, that was one 64 KiB slab per live socket, external memory 11 → 26 MiB over a
 * 10-minute load run (heap snapshots: 64 KiB ArrayBuffers held by `TLSSocket._tlsOptions.ALPNProtocols`).
 */
export const BUFFER_POOL_BYTES = 8 * 1024;

/** Settings of the bot's process that no command-line flag sets; the entry point applies them before any socket. */
export function applyProcessSettings(): void {
  Buffer.poolSize = BUFFER_POOL_BYTES;
}
