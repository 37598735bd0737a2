/**
 * The simulator reports performance the way an array does (issue 43): NFS is the sum of its clients' operations
 * and bytes, with each latency their operation-weighted mix; "all protocols" is the same mix over NFS, SMB, S3
 * and HTTP. Read over HTTPS with the bot's client, at the moment the clients are sampled and over an hour's
 * history, on a quiet demo and during the slow-nfs incident.
 */
import { afterEach, expect, test } from "vitest";
import { type Harness, startHarness } from "../core/harness.js";

type Row = Record<string, number>;
let h: Harness | undefined;
afterEach(async () => h?.close());

const KINDS = [
  ["reads_per_sec", "usec_per_read_op"],
  ["writes_per_sec", "usec_per_write_op"],
  ["others_per_sec", "usec_per_other_op"],
] as const;

/** Sums and operation-weighted latencies of `parts`, checked against `whole` (latencies are whole µs). */
function expectMix(whole: Row, parts: readonly Row[], what: string) {
  for (const k of ["read_bytes_per_sec", "write_bytes_per_sec"])
    expect(whole[k], `${what} ${k}`).toBe(parts.reduce((a, p) => a + (p[k] ?? 0), 0));
  for (const [ops, usec] of KINDS) {
    const n = parts.reduce((a, p) => a + (p[ops] ?? 0), 0);
    expect(whole[ops], `${what} ${ops}`).toBe(n);
    const mixed = parts.reduce((a, p) => a + (p[ops] ?? 0) * (p[usec] ?? 0), 0) / n;
    expect(Math.abs((whole[usec] ?? 0) - mixed), `${what} ${usec}`).toBeLessThanOrEqual(0.5);
  }
}

for (const scenario of ["demo", "slow-nfs"] as const) {
  test(`NFS is its clients' mix, and all protocols the protocols' mix (${scenario})`, async () => {
    h = await startHarness({ arrays: [{ name: "lab-1", scenario }], shareClock: true, simulatorClock: true });
    const client = h.pool.get("lab-1");
    const read = async (protocol: string, query: Record<string, number> = {}) =>
      (await client.get<Row>("/arrays/performance", { query: { protocol, ...query } })).items;
    const clients = (await client.get<Row>("/arrays/clients/performance", { query: { limit: 1000 } })).items;
    const [nfsNow] = await read("nfs");
    if (!nfsNow) throw new Error("no NFS sample");
    expect(clients.length).toBeGreaterThan(3);
    expectMix(nfsNow, clients, "NFS now");
    // An hour of history, across the incident's start: every sample of "all" mixes the protocols' samples.
    const window = { start_time: h.clock.now - 3_600_000, end_time: h.clock.now, resolution: 300_000 };
    const [all, ...parts] = await Promise.all(
      ["all", "nfs", "smb", "s3", "http"].map((p) => read(p, window)),
    );
    expect(all?.length).toBe(13);
    (all ?? []).forEach((sample, i) => {
      expectMix(
        sample,
        parts.map((p) => p[i] ?? {}),
        `all at ${sample["time"]}`,
      );
    });
  });
}
