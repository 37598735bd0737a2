import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";
import { requestMark, writesSince } from "./sim-requests.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "old-1", versions: "1.0-1.8" }],
  });
});
afterAll(async () => h.close());

const sim = (name = "lab-1"): Simulator => {
  const s = h.sims.get(name);
  if (!s) throw new Error(`no simulator ${name}`);
  return s;
};

describe("buckets", () => {
  test("create in an account on REST 1.12 and on 1.8 (each version's parameter name)", async () => {
    for (const array of ["lab-1", "old-1"]) {
      const text = textOf(
        await h.run("bob", `bucket create media-assets --account analytics --array ${array}`),
      );
      expect(text).toContain(`Created bucket media-assets in account analytics on ${array}.`);
      expect(sim(array).state.buckets.get("media-assets")?.account).toBe("analytics");
    }
    expect(
      textOf(await h.run("bob", "bucket create media-assets --account analytics --array lab-1")),
    ).toContain("Bucket media-assets already exists on lab-1");
  });

  test("create --versioning enabled: the dry run shows POST then PATCH, and both are sent in that order", async () => {
    const line = "bucket create media-versioned --account analytics --versioning enabled --array lab-1";
    const dry = textOf(await h.run("bob", `${line} --dry-run`));
    expect(dry).toContain(
      `${onWire('POST /api/1.12/buckets?names=media-versioned {"account":{"name":"analytics"}}')}\n${onWire('PATCH /api/1.12/buckets?names=media-versioned {"versioning":"enabled"}')}`,
    );
    const m = requestMark(sim());
    expect(textOf(await h.run("bob", line))).toContain(
      "Created bucket media-versioned in account analytics on lab-1, versioning enabled.",
    );
    expect(writesSince(sim(), m, "/buckets").map((r) => r.method)).toEqual(["POST", "PATCH"]);
    expect(sim().state.buckets.get("media-versioned")?.versioning).toBe("enabled");
    expect(
      textOf(
        await h.run("bob", "bucket create media-v --account analytics --versioning enabled --array old-1"),
      ),
    ).toContain("Versioning needs REST 1.9 or newer");
    expect(sim("old-1").state.buckets.has("media-v")).toBe(false);
  });

  test("list: largest first, with account, objects and versioning", async () => {
    const text = textOf(await h.run("carol", "bucket list --account backup --array lab-1"));
    expect(text).toContain("2 buckets in backup on array lab-1");
    expect(text.indexOf("veeam-repo")).toBeLessThan(text.indexOf("logs-archive"));
  });

  test("destroy is gated as destroy, names the replica links that stop, and offers Recover", async () => {
    const effects = await h.run("bob", "bucket destroy veeam-repo --array lab-1");
    const card = textOf(effects);
    expect(card).toContain("Replica links: to fb-dr-01");
    expect(card).toContain("Objects: 930,000");
    expect(sim().state.buckets.get("veeam-repo")?.destroyed).toBe(false);
    const done = await h.click("bob", effects, "Confirm");
    expect(textOf(done)).toContain("Destroyed bucket veeam-repo on lab-1.");
    expect(sim().state.buckets.get("veeam-repo")?.destroyed).toBe(true);
    await h.click("bob", done, "Recover veeam-repo");
    expect(sim().state.buckets.get("veeam-repo")?.destroyed).toBe(false);
  });

  test("eradicate needs an admin (as DELETE /buckets does), a destroyed bucket and a second admin's approval", async () => {
    expect(textOf(await h.run("bob", "bucket eradicate tmp-export --array lab-1"))).toMatch(
      /needs the admin role/,
    );
    expect(textOf(await h.run("alice", "bucket eradicate veeam-repo --array lab-1"))).toContain(
      "veeam-repo is not destroyed",
    );
    const m = requestMark(sim());
    const effects = await h.run("alice", "bucket eradicate tmp-export --array lab-1");
    expect(textOf(effects)).toContain("Approval requested");
    await h.click("dave", effects, "Approve", "tmp-export");
    expect(writesSince(sim(), m, "/buckets").map((r) => r.method)).toEqual(["DELETE"]);
    expect(sim().state.buckets.has("tmp-export")).toBe(false);
  });
});

describe("bucket versioning", () => {
  test("enable on 1.12, refused on 1.8, no-op answered", async () => {
    expect(
      textOf(await h.run("bob", "bucket update media-assets --versioning enabled --array lab-1")),
    ).toContain("Versioning of bucket media-assets on lab-1 is now enabled.");
    expect(sim().state.buckets.get("media-assets")?.versioning).toBe("enabled");
    expect(
      textOf(await h.run("bob", "bucket update media-assets --versioning enabled --array lab-1")),
    ).toContain("already enabled");
    expect(
      textOf(await h.run("bob", "bucket update media-assets --versioning enabled --array old-1")),
    ).toContain("needs REST 1.9");
  });
});

describe("accounts", () => {
  test("delete counts users and keys; refused while the account holds buckets", async () => {
    expect(textOf(await h.run("bob", "account delete backup --array lab-1"))).toContain(
      "Account backup still holds 2 buckets (veeam-repo, logs-archive)",
    );
    await h.run("bob", "account create media --array lab-1");
    const st = sim().state;
    st.objectUsers.set("media/app", {
      id: "u-1",
      name: "media/app",
      account: "media",
      created: 0,
      full_access: false,
    });
    st.accessKeys.set("PSFBMEDIAKEY", {
      id: "k-1",
      name: "PSFBMEDIAKEY",
      user: "media/app",
      created: 0,
      enabled: true,
      secret: "s3cr3t-media-key-never-shown",
    });
    const effects = await h.run("bob", "account delete media --array lab-1");
    const card = textOf(effects);
    expect(card).toContain("with 1 user and 1 access key");
    expect(card).toContain("Users: media/app");
    expect(card).not.toContain("s3cr3t-media-key-never-shown");
    await h.click("bob", effects, "Confirm");
    expect(sim().state.accounts.has("media")).toBe(false);
    expect(sim().state.accessKeys.has("PSFBMEDIAKEY")).toBe(false);
    const analytics = textOf(await h.run("carol", "account list --array lab-1"));
    expect(analytics).toMatch(/analytics \| \d+ \| 2 \|/);
  });
});

describe("object store users", () => {
  test("create, list, delete (gated, naming the keys that go with it)", async () => {
    expect(textOf(await h.run("bob", "object-user create analytics/etl2 --array lab-1"))).toContain(
      "Created object store user analytics/etl2 on lab-1.",
    );
    expect(textOf(await h.run("bob", "object-user create analytics/etl2 --array lab-1"))).toContain(
      "already exists",
    );
    expect(textOf(await h.run("carol", "object-user list --account analytics --array lab-1"))).toContain(
      "analytics/etl2 | 0",
    );
    const key = [...sim().state.accessKeys.values()].find((k) => k.user === "analytics/reader");
    const effects = await h.run("bob", "object-user delete analytics/reader --array lab-1");
    expect(textOf(effects)).toContain(`Access keys: ${key?.name}`);
    expect(textOf(effects)).not.toContain(key?.secret ?? "missing");
    await h.click("bob", effects, "Confirm");
    expect(sim().state.objectUsers.has("analytics/reader")).toBe(false);
  });
});

describe("virtual hosts (REST 1.12)", () => {
  test("add, list, remove (gated); arrays before 1.12 are told", async () => {
    expect(textOf(await h.run("alice", "virtual-host add s3.lab.example.com --array lab-1"))).toContain(
      "Added virtual host s3.lab.example.com on lab-1.",
    );
    expect(textOf(await h.run("carol", "virtual-host list --array lab-1"))).toContain("s3.lab.example.com");
    expect(textOf(await h.run("alice", "virtual-host add not_a_host --array lab-1"))).toContain("host name");
    const effects = await h.run("alice", "virtual-host remove s3.lab.example.com --array lab-1");
    expect(textOf(effects)).toContain("get errors from then on");
    await h.click("alice", effects, "Confirm");
    expect(sim().state.generic.get("/object-store-virtual-hosts")?.items.has("s3.lab.example.com")).toBe(
      false,
    );
    expect(textOf(await h.run("carol", "virtual-host list --array old-1"))).toContain("need REST 1.12");
  });
});

describe("bucket performance", () => {
  test("the busiest buckets, and one bucket with its S3 object rates", async () => {
    const all = textOf(await h.run("carol", "bucket perf --top 2 --array lab-1"));
    expect(all).toContain("Busiest 2 buckets now on array lab-1");
    const one = textOf(await h.run("carol", "bucket perf veeam-repo --array lab-1"));
    expect(one).toContain("Bucket veeam-repo now on array lab-1");
    expect(one).toMatch(/S3: [\d,]+ object reads\/s/);
    expect(textOf(await h.run("carol", "bucket perf --array old-1"))).toMatch(/Busiest \d+ buckets/);
  });
});
