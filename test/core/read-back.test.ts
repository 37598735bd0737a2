/**
 * Reading a planned change back from a real (simulated) array over HTTPS: each planned request line, as a card
 * shows it, is compared with what the array shows now, through the GET of the same path in the interface table.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { overall, readBack, readBackOne } from "../../src/core/requests/read-back.js";
import { type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const client = () => h.pool.get("lab-1");
const fs = (name: string) => {
  const f = h.sims.get("lab-1")?.state.fileSystems.get(name);
  if (!f) throw new Error(`no file system ${name} on lab-1`);
  return f;
};

describe("read-back of planned requests", () => {
  test("a PATCH whose fields all show as planned is done; none, not done; some, partly done", async () => {
    const size = fs("builds").provisioned;
    const done = await readBackOne(
      client(),
      `PATCH /api/1.12/file-systems?names=builds {"provisioned":${size}}`,
    );
    expect(done).toEqual({
      verdict: "done",
      line: "PATCH /file-systems builds: done, it shows the planned values",
    });
    const notDone = await readBackOne(
      client(),
      `PATCH /api/1.12/file-systems?name=builds {"provisioned":${size + 1}}`,
    );
    expect(notDone.verdict).toBe("not done");
    expect(notDone.line).toContain(`provisioned is ${size}, planned ${size + 1}`);
    const partly = await readBackOne(
      client(),
      `PATCH /api/1.12/file-systems?names=builds {"provisioned":${size},"nfs":{"v3_enabled":${!fs("builds").nfs.v3_enabled}}}`,
    );
    expect(partly.verdict).toBe("partly done");
    expect(partly.line).toContain("nfs.v3_enabled is");
  });

  test("a DELETE is done when the object is gone and not done while it is there; a POST the other way", async () => {
    expect((await readBackOne(client(), "DELETE /api/1.12/file-systems?names=builds")).verdict).toBe(
      "not done",
    );
    expect(await readBackOne(client(), "DELETE /api/1.12/file-systems?names=no-such-fs")).toEqual({
      verdict: "done",
      line: "DELETE /file-systems no-such-fs: done, it is gone",
    });
    expect((await readBackOne(client(), 'POST /api/1.12/file-systems {"name":"no-such-fs"}')).verdict).toBe(
      "not done",
    );
    expect((await readBackOne(client(), 'POST /api/1.12/file-systems {"name":"builds"}')).verdict).toBe(
      "done",
    );
  });

  test("secrets are never compared or shown; an unreadable request says so; the overall verdict", async () => {
    const secret = await readBackOne(
      client(),
      'PATCH /api/1.12/file-systems?names=builds {"secret_access_key":"hunter2-never-shown"}',
    );
    expect(secret.verdict).toBe("cannot tell");
    expect(secret.line).not.toContain("hunter2");
    expect((await readBackOne(client(), "POST /api/1.12/logout")).line).toContain("cannot tell");
    const size = fs("builds").provisioned;
    const all = await readBack(
      client(),
      [
        `PATCH /api/1.12/file-systems?names=builds {"provisioned":${size}}`,
        "DELETE /api/1.12/file-systems?names=builds",
      ],
      "req-1",
    );
    expect(overall(all)).toBe("partly done");
  });
});
