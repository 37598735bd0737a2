/**
 * The SQLite store on a full file system (issue 44): a real tmpfs of 2 MiB, filled to the last block by a file
 * beside the data file. The store refuses writes with STORE_FULL and leaves the data file whole; the bot's /readyz
 * says the volume is full, a change and an approval click are refused with a clear message before anything is
 * sent to the array, and once the filler is removed the same click carries the change out, once.
 * Mounting a tmpfs needs root (CI runs as root); the test fails, never skips, where it cannot mount.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freeBytes } from "../../src/store/disk-full.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { cardButton } from "../fakes/card-buttons.js";
import { httpDriver } from "../fakes/drivers.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { requestCount } from "../helpers/wire.js";
import {
  loadRunSlackConfig,
  RUN_SECRET,
  type RunSlackWorld,
  startRunSlack,
  startRunSlackWorld,
} from "../slack/helpers/run-slack.js";

let vol = "";
let world: RunSlackWorld;

beforeAll(async () => {
  vol = mkdtempSync(join(tmpdir(), "full-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", vol]);
  world = await startRunSlackWorld();
});

afterAll(async () => {
  await world?.close();
  if (vol) {
    execFileSync("umount", [vol]);
    rmSync(vol, { recursive: true, force: true });
  }
});

/** Fills the volume to its last block with a file; returns it, to be removed when space should come back. */
function fill(name: string): string {
  const path = join(vol, name);
  const fd = openSync(path, "w");
  try {
    for (const size of [64 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "ENOSPC") break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  expect(freeBytes(vol)).toBeLessThan(4096);
  return path;
}

describe("the SQLite store on a full volume", () => {
  test("refuses writes with STORE_FULL, says so in its health, keeps its data whole, and recovers", async () => {
    const dataDir = join(vol, "store");
    const store = openSqliteStore({ dataDir });
    await store.write([{ op: "put", ns: "pending", key: "before", value: { kept: true } }]);
    const filler = fill("filler-store");
    expect(store.health()).toMatchObject({ up: false });
    expect(store.health().detail).toMatch(/^data volume full/);
    // Whatever slack the WAL still has, writes fail soon and with the clear refusal, not an internal error.
    let failure: unknown;
    for (let i = 0; i < 1000 && failure === undefined; i++)
      await store
        .write([{ op: "put", ns: "pending", key: `k${i}`, value: { pad: "x".repeat(4000) } }])
        .catch((err: unknown) => {
          failure = err;
        });
    expect(failure).toMatchObject({ code: "STORE_FULL", userFacing: true });
    expect(String((failure as Error).message)).toContain("Nothing was sent to the array");
    expect(await store.get("pending", "before")).toEqual({ kept: true });

    unlinkSync(filler);
    expect(store.health()).toEqual({ up: true, detail: "embedded" });
    await store.write([{ op: "put", ns: "pending", key: "after", value: { ok: 1 } }]);
    await store.close();

    const db = new DatabaseSync(join(dataDir, "array-chatops.db"));
    try {
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const keys = db.prepare("SELECT key FROM kv WHERE ns = 'pending' AND key IN ('before', 'after')").all();
      expect(keys.map((r) => r["key"]).sort()).toEqual(["after", "before"]);
    } finally {
      db.close();
    }
  });
});

describe("the bot on a full volume", () => {
  test("/readyz says so, a change and an approval are refused before the array, and it recovers", async () => {
    const { fake, sim } = world;
    const loaded = loadRunSlackConfig(world, [
      "access:",
      "  default_role: none",
      "  operator: { users: [UBOB, UOPS1] }",
      "store:",
      "  kind: sqlite",
      `  data_dir: ${join(vol, "bot")}`,
      "alerts: { enabled: false }",
    ]);
    const app = await startRunSlack(loaded);
    const driver = httpDriver(app.baseUrl, RUN_SECRET);
    const patches = () => requestCount(sim.control.stats(), "PATCH /api/1.12/file-systems");
    const readyz = async () => {
      const res = await fetch(`${app.baseUrl}/readyz`);
      return { status: res.status, body: (await res.json()) as { store: { up: boolean; detail: string } } };
    };
    try {
      // A request waiting for one approval, made while there is room.
      const inC1 = (c: { args: Record<string, unknown> }) => c.args["channel"] === "C1";
      await driver.command(
        slashCommand({ text: "fs resize builds 9T", userId: "UBOB", responseUrl: fake.responseUrl("req") }),
      );
      const card = await fake.waitForCall("chat.postMessage", inC1);
      const ts = [...fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
      const approve = cardButton(card, "approve");
      const click = (id: string) =>
        driver.interactive(
          blockAction({
            actionId: approve.action_id,
            value: approve.value,
            userId: "UOPS1",
            messageTs: ts,
            responseUrl: fake.responseUrl(id),
          }),
        );
      expect((await readyz()).status).toBe(200);

      const filler = fill("filler-bot");
      const full = await readyz();
      expect(full.status).toBe(503);
      expect(full.body.store).toMatchObject({ up: false });
      expect(full.body.store.detail).toMatch(/^data volume full/);
      expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);

      // A new change: refused with the reason, no card, nothing sent.
      const posts = fake.callsOf("chat.postMessage").length;
      await driver.command(
        slashCommand({ text: "fs resize home 30T", userId: "UBOB", responseUrl: fake.responseUrl("new") }),
      );
      const refused = await fake.waitForResponse((r) => r.id === "new");
      expect(JSON.stringify(refused.body)).toContain("the bot's data volume is full");
      // The approval click: refused the same way; the request stays open.
      await click("full-click");
      const clickRefused = await fake.waitForResponse((r) => r.id === "full-click");
      expect(JSON.stringify(clickRefused.body)).toContain("the bot's data volume is full");
      expect(patches()).toBe(0);
      expect(fake.callsOf("chat.postMessage").length).toBe(posts);

      // Space comes back: ready again, and the same click carries the change out, once.
      unlinkSync(filler);
      expect((await readyz()).status).toBe(200);
      await click("room-click");
      await fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("→ 9 TiB"));
      expect(patches()).toBe(1);
      expect(sim.state.fileSystems.get("builds")?.provisioned).toBe(9 * 2 ** 40);
    } finally {
      await app.stop();
    }
  });
});
