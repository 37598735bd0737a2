/**
 * Two simulated arrays connected by the bot: a connection made with a key the bot fetches itself, remote
 * credentials from a key made on the target, a bucket replica link paused (gated), its lag growing while
 * paused, resumed, and deleted with approval; then the connection removed.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { requestMark, writesSince } from "./sim-requests.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    simulatorClock: true,
    arrays: [{ name: "src-1" }, { name: "dst-1" }],
  });
});
afterAll(async () => h.close());

const sim = (name: string): Simulator => {
  const s = h.sims.get(name);
  if (!s) throw new Error(`no simulator ${name}`);
  return s;
};
const everything = async () => `${JSON.stringify(h.audits)}\n${JSON.stringify(await h.store.listOpen())}`;

describe("a replicated pair", () => {
  test("connect: the bot fetches a key from the target and the key is never shown", async () => {
    const effects = await h.run("alice", "array-connection create dst-1 --address 10.99.0.20 --array src-1");
    expect(textOf(effects)).toContain("Connected src-1 to dst-1 (connected).");
    const key = sim("dst-1").state.generic.get("/array-connections/connection-key")?.items.get("key");
    const issued = String(key?.["connection_key"]);
    expect(issued.length).toBeGreaterThan(5);
    const conns = [...sim("src-1").state.arrayConnections.values()];
    expect(conns.find((c) => c.remote.name === "dst-1")?.management_address).toBe("10.99.0.20");
    expect(textOf(effects)).not.toContain(issued);
    expect(JSON.stringify(h.audits)).not.toContain(issued);
    const list = textOf(await h.run("carol", "array-connection list --array src-1"));
    expect(list).toContain("dst-1 | connected | 10.99.0.20");
    expect(
      textOf(await h.run("alice", "array-connection create dst-1 --address 10.99.0.21 --array src-1")),
    ).toContain("already has a connection to dst-1");
  });

  test("remote credentials from a new key on the target; its secret is never shown", async () => {
    const before = new Set(sim("dst-1").state.accessKeys.keys());
    const effects = await h.run(
      "alice",
      "remote-credentials create dst-1/repl --user backup/veeam --array src-1",
    );
    const made = [...sim("dst-1").state.accessKeys.values()].find((k) => !before.has(k.name));
    if (!made) throw new Error("no key made on dst-1");
    expect(textOf(effects)).toContain(
      `Created remote credentials dst-1/repl on src-1 (access key ${made.name}).`,
    );
    const stored = sim("src-1")
      .state.generic.get("/object-store-remote-credentials")
      ?.items.get("dst-1/repl");
    expect(stored?.["access_key_id"]).toBe(made.name);
    expect(textOf(effects)).not.toContain(made.secret);
    expect(await everything()).not.toContain(made.secret);
    expect(textOf(await h.run("carol", "remote-credentials list --array src-1"))).not.toContain(made.secret);
  });

  test("a bucket replica link: paused behind a confirmation, its lag grows, resumed, deleted with approval", async () => {
    await h.run(
      "bob",
      "bucket-link create analytics-raw --remote dst-1 --credentials dst-1/repl --array src-1",
    );
    const status = () => h.run("carol", "replication status --array src-1").then(textOf);
    expect(await status()).toMatch(/🟢 ok \| src-1 \| analytics-raw → dst-1 \| bucket/);

    const pause = await h.run("bob", "bucket-link pause analytics-raw --array src-1");
    expect(textOf(pause)).toContain("New and changed objects in analytics-raw stop reaching dst-1");
    await h.click("bob", pause, "Confirm");
    h.clock.advance(45 * 60_000);
    expect(await status()).toContain(
      "⏸️ paused | src-1 | analytics-raw → dst-1 | bucket | 1h (no policy) | 45m | 0.8×",
    );
    h.clock.advance(60 * 60_000);
    expect(await status()).toContain(
      "⏸️ paused | src-1 | analytics-raw → dst-1 | bucket | 1h (no policy) | 1h 45m | 1.8×",
    );

    await h.run("bob", "bucket-link resume analytics-raw --array src-1");
    expect(await status()).toMatch(/🟡 behind \| src-1 \| analytics-raw → dst-1/);
    h.clock.advance(35 * 60_000);
    expect(await status()).toMatch(
      /🟢 ok \| src-1 \| analytics-raw → dst-1 \| bucket \| 1h \(no policy\) \| \d+s/,
    );

    const m = requestMark(sim("src-1"));
    const del = await h.run("bob", "bucket-link delete analytics-raw --remote dst-1 --array src-1");
    expect(textOf(del)).toContain("Approval requested");
    expect(textOf(await h.click("bob", del, "Approve"))).toContain("needs approval from someone else");
    expect(writesSince(sim("src-1"), m, "/bucket-replica-links")).toHaveLength(0);
    await h.click("alice", del, "Approve");
    expect(
      [...sim("src-1").state.bucketReplicaLinks.values()].some(
        (l) =>
          l.remoteBucket === "analytics-raw" &&
          l.localBucket === "analytics-raw" &&
          sim("src-1").state.arrayConnections.get(l.remoteId)?.remote.name === "dst-1",
      ),
    ).toBe(false);
  });

  test("a file system replica link with a policy: its interval, and the snapshot on its way", async () => {
    expect(
      textOf(await h.run("bob", "fs-link create projects --remote dst-1 --policy hourly --array src-1")),
    ).toContain("Created file system replica link projects → dst-1 on src-1.");
    // Ten seconds past the hour the policy took its snapshot, and it is on its way (a transfer takes 72 s here).
    const hour = 3_600_000;
    h.clock.advance(Math.ceil(h.clock.now / hour) * hour - h.clock.now);
    const taken = sim("src-1").control.stateControl("run-policy", { policy: "hourly" }) as {
      snapshots: string[];
    };
    const snap = taken.snapshots.find((n) => n.startsWith("projects."));
    if (snap === undefined) throw new Error("the policy took no snapshot of projects");
    h.clock.advance(10_000);
    const status = textOf(await h.run("carol", "replication status --array src-1"));
    expect(status).toContain(`sending ${snap} 13%`);
    const list = textOf(await h.run("carol", "fs-link list projects --array src-1"));
    expect(list).toContain("projects → dst-1 | replicating | hourly");
    expect(list).toContain(`${snap} (13%)`);
    h.clock.advance(2 * 60_000);
    // Sent: the lag is measured from when it was taken, and the list names it with that time.
    const after = textOf(await h.run("carol", "fs-link list projects --array src-1"));
    expect(after).toMatch(
      new RegExp(
        `projects → dst-1 \\| replicating \\| hourly \\| 2m 10s \\| ${snap.replace(/\./g, "\\.")}, taken `,
      ),
    );
    expect(textOf(await h.run("carol", "replication status --array src-1"))).toContain(
      "🟢 ok | src-1 | projects → dst-1 | file system | 1h (policy hourly) | 2m 10s | 0.0×",
    );
    await h
      .run("bob", "fs-link create projects --remote dst-1 --policy hourly --array src-1")
      .then((e) => expect(textOf(e)).toContain("projects already replicates to dst-1"));
    // The link goes before the connection can.
    sim("src-1").state.fileSystemReplicaLinks.forEach((l, id) => {
      if (
        l.localFileSystem === "projects" &&
        l.remoteFileSystem === "projects" &&
        sim("src-1").state.arrayConnections.get(l.remoteId)?.remote.name === "dst-1"
      )
        sim("src-1").state.fileSystemReplicaLinks.delete(id);
    });
  });

  test("disconnect: refused while links use it, approved once they are gone", async () => {
    const del = await h.run("alice", "array-connection delete dst-1 --array src-1");
    await h.click("dave", del, "Approve");
    expect([...sim("src-1").state.arrayConnections.values()].some((c) => c.remote.name === "dst-1")).toBe(
      false,
    );
    expect(textOf(await h.run("alice", "array-connection delete fb-dr-01 --array src-1"))).toContain(
      "still carries",
    );
  });

  test("connection-key create answers with a secret message", async () => {
    const effects = await h.run("alice", "connection-key create --array dst-1");
    const key = String(
      sim("dst-1").state.generic.get("/array-connections/connection-key")?.items.get("key")?.[
        "connection_key"
      ],
    );
    const reply = effects[0];
    expect(reply?.kind).toBe("reply");
    if (reply?.kind !== "reply") return;
    expect(reply.message).toMatchObject({ visibility: "ephemeral", secret: true });
    expect(textOf(effects)).toContain(key);
    expect(textOf(effects)).toContain("it will not be shown again");
  });
});
