/**
 * One rule per resource group, end to end over real HTTPS: the client trusts only the simulator's own
 * certificate and sees exactly what goes on the wire (status, 1.x error body, envelope). The in-process
 * resource tests cover each rule in depth; this file proves the front end carries them unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorMessage, manualClock, openSim, type Reply, type SimClient } from "./server-helpers.js";

const HOUR = 3_600_000;
// biome-ignore lint/suspicious/noExplicitAny: free-form JSON items read back from the wire
type Item = Record<string, any>;

const clock = manualClock(Date.UTC(2024, 2, 1, 12, 0, 0));
let c: SimClient;
let token: string;

beforeAll(async () => {
  // These rules are checked at the 1.x versions that gate them (1.9, 1.11, 1.12), so the array serves 1.x.
  c = await openSim({ scenario: "demo", seed: 7, clock: clock.now, versions: "1.0-1.12" });
  token = await c.login();
});
afterAll(async () => {
  await c.close();
});

function api(method: string, version: string, pathAndQuery: string, body?: unknown): Promise<Reply> {
  return c.call(method, `/api/${version}${pathAndQuery}`, {
    headers: { "x-auth-token": token, "content-type": "application/json", accept: "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The call must answer 200 with a 1.x envelope; returns its items. */
async function okItems(
  method: string,
  version: string,
  pathAndQuery: string,
  body?: unknown,
): Promise<Item[]> {
  const r = await api(method, version, pathAndQuery, body);
  expect(r.status, `${method} ${pathAndQuery}: ${r.text}`).toBe(200);
  expect(r.headers["content-type"]).toMatch(/^application\/json/);
  return (r.json() as { items: Item[] }).items;
}

/** The call must answer 400 with the 1.x error body `{"errors":[{"context","message"}]}` matching `message`. */
async function expect400(
  method: string,
  version: string,
  pathAndQuery: string,
  body: unknown,
  message: RegExp,
) {
  const r = await api(method, version, pathAndQuery, body);
  expect(r.status, `${method} ${pathAndQuery}: ${r.text}`).toBe(400);
  const errors = (r.json() as { errors: { context: unknown; message: string }[] }).errors;
  expect(errors).toHaveLength(1);
  expect(errors[0]).toEqual({ context: expect.any(String), message: expect.stringMatching(message) });
}

describe("simulator rules over HTTPS", () => {
  it("quotas: gids and group_names are exclusive", async () => {
    await expect400(
      "GET",
      "1.12",
      "/quotas/groups?gids=3001&group_names=engineering",
      undefined,
      /'gids' and 'group_names' cannot be used together/,
    );
    const groups = await okItems("GET", "1.12", "/quotas/groups?group_names=engineering");
    expect(groups.map((g) => g["name"])).toEqual(["projects/engineering"]);
  });

  it("replica links: pause then resume a bucket replica link", async () => {
    const selector = "/bucket-replica-links?local_bucket_names=analytics-curated&remote_names=fb-dr-01";
    const [paused] = await okItems("PATCH", "1.12", selector, { paused: true });
    expect(paused).toMatchObject({ paused: true, status: "paused" });
    const [resumed] = await okItems("PATCH", "1.12", selector, { paused: false });
    expect(resumed).toMatchObject({ paused: false, status: "replicating" });
    await expect400("PATCH", "1.12", "/bucket-replica-links", { paused: true }, /Select links with/);
  });

  it("policies: removing a rule with snapshots needs destroy_snapshots=true, then succeeds", async () => {
    const weekly = { every: 7 * 24 * HOUR, keep_for: 28 * 24 * HOUR, at: 3 * HOUR, time_zone: "UTC" };
    await expect400(
      "PATCH",
      "1.12",
      "/policies?names=daily",
      { remove_rules: [weekly] },
      /snapshot\(s\) it made without a rule; set destroy_snapshots=true/,
    );
    const [unchanged] = await okItems("GET", "1.12", "/policies?names=daily");
    expect(unchanged?.["rules"]).toHaveLength(2);
    const [p] = await okItems("PATCH", "1.12", "/policies?names=daily&destroy_snapshots=true", {
      remove_rules: [weekly],
    });
    expect(p?.["rules"]).toHaveLength(1);
    expect(p?.["rules"][0]).toMatchObject({ every: 24 * HOUR });
  });

  it("lifecycle rules: ids without bucket_names or bucket_ids is a 400 at 1.12; ids before 1.12 too", async () => {
    const [rule] = await okItems("GET", "1.12", "/lifecycle-rules?names=analytics-raw/tmp-cleanup");
    const id = String(rule?.["id"]);
    await expect400(
      "PATCH",
      "1.12",
      `/lifecycle-rules?ids=${id}`,
      { enabled: false },
      /by 'ids' needs 'bucket_names' or 'bucket_ids'/,
    );
    await expect400(
      "PATCH",
      "1.11",
      `/lifecycle-rules?ids=${id}&bucket_names=analytics-raw`,
      {},
      /'ids' is not accepted before REST 1.12/,
    );
    const [patched] = await okItems(
      "PATCH",
      "1.12",
      `/lifecycle-rules?ids=${id}&bucket_names=analytics-raw`,
      {
        enabled: false,
      },
    );
    expect(patched).toMatchObject({ id, enabled: false });
  });

  it("buckets: the account reference goes in 'account' in every version, never 'bucket'", async () => {
    await expect400(
      "POST",
      "1.9",
      "/buckets?names=smoke-b2",
      { bucket: { name: "analytics" } },
      /in 'account'.*not 'bucket'/,
    );
    const [old] = await okItems("POST", "1.8", "/buckets?names=smoke-old", {
      account: { name: "analytics" },
    });
    expect(old).toMatchObject({ name: "smoke-old", account: { name: "analytics" } });
    const [neu] = await okItems("POST", "1.12", "/buckets?names=smoke-new", { account: { name: "backup" } });
    expect(neu?.["account"]).toMatchObject({ name: "backup", resource_type: "object-store-accounts" });
  });

  it("performance: a one-hour window at the default 30 s resolution is 121 samples, 300 s is 12", async () => {
    const end = clock.now();
    const start = end - HOUR;
    const series = await okItems("GET", "1.12", `/arrays/performance?start_time=${start}&end_time=${end}`);
    expect(series).toHaveLength(121);
    expect(series[1]?.["time"] - series[0]?.["time"]).toBe(30_000);
    const coarse = await okItems(
      "GET",
      "1.12",
      `/arrays/performance?start_time=${start + 1}&end_time=${end}&resolution=300000`,
    );
    expect(coarse).toHaveLength(12);
    await expect400("GET", "1.12", "/arrays/performance?start_time=x", undefined, /start_time/);
  });

  it("clients performance: clients are named <address>:<port>; total_only only from 1.11", async () => {
    const clients = await okItems("GET", "1.11", "/arrays/clients/performance?sort=reads_per_sec-&limit=3");
    expect(clients).toHaveLength(3);
    for (const client of clients) expect(client["name"]).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+$/);
    await expect400("GET", "1.10", "/arrays/clients/performance?total_only=true", undefined, /total_only/);
  });

  it("alerts: PATCH changes only 'flagged'", async () => {
    const [a] = await okItems("PATCH", "1.12", "/alerts?names=2", { flagged: true });
    expect(a).toMatchObject({ name: "2", flagged: true });
    const [readBack] = await okItems("GET", "1.12", "/alerts?names=2");
    expect(readBack?.["flagged"]).toBe(true);
    await expect400(
      "PATCH",
      "1.12",
      "/alerts?names=2",
      { state: "closed" },
      /Only 'flagged' can be changed on an alert; remove 'state'/,
    );
    await expect400("PATCH", "1.12", "/alerts?names=999", { flagged: true }, /Alert '999' does not exist/);
  });
});

/** Twins of rules above that 2.x keeps, on an array pinned to 2.x (the same paths and names at 2.28). */
describe("the same rules on 2.x", () => {
  let c2: SimClient;
  let h2: Record<string, string>;
  beforeAll(async () => {
    c2 = await openSim({ scenario: "demo", seed: 7, clock: clock.now, versions: "2.0-2.28" });
    h2 = { "x-auth-token": await c2.login(), "content-type": "application/json" };
  });
  afterAll(async () => {
    await c2.close();
  });
  const call2 = (method: string, pathAndQuery: string, body?: unknown) =>
    c2.call(method, `/api/2.28${pathAndQuery}`, {
      headers: h2,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("quotas: gids and group_names are exclusive", async () => {
    const both = await call2("GET", "/quotas/groups?gids=3001&group_names=engineering");
    expect(both.status, both.text).toBe(400);
    expect(errorMessage(both)).toMatch(/'gids' and 'group_names' cannot be used together/);
    const one = await call2("GET", "/quotas/groups?group_names=engineering");
    expect(one.status, one.text).toBe(200);
    expect((one.json() as { items: Item[] }).items.map((g) => g["name"])).toEqual(["projects/engineering"]);
  });

  it("alerts: PATCH changes only 'flagged'", async () => {
    const flagged = await call2("PATCH", "/alerts?names=2", { flagged: true });
    expect(flagged.status, flagged.text).toBe(200);
    const refused = await call2("PATCH", "/alerts?names=2", { state: "closed" });
    expect(refused.status, refused.text).toBe(400);
    expect(errorMessage(refused)).toMatch(/Only 'flagged' can be changed on an alert; remove 'state'/);
  });
});
