import { describe, expect, it } from "vitest";
import { call, expect400, HOUR, items, list, q, sim } from "./helpers.js";

function nonNegative(v: unknown): boolean {
  if (typeof v === "number") return v >= 0 && Number.isFinite(v);
  if (v && typeof v === "object") return Object.values(v).every(nonNegative);
  return true;
}

describe("/arrays", () => {
  it("is a one-item list with the fields of the request's version", () => {
    const { state, clock } = sim();
    const at = (v: string) => list(state, "/arrays", "", v).items;
    expect(at("1.12")).toEqual([
      expect.objectContaining({
        name: "fb-test",
        os: "Purity//FB",
        time_zone: "UTC",
        banner: "",
        idle_timeout: 1_800_000,
        _as_of: clock.now,
      }),
    ]);
    expect(at("1.3")[0]).not.toHaveProperty("time_zone");
    expect(at("1.6")[0]).not.toHaveProperty("_as_of");
    expect(at("1.9")[0]).not.toHaveProperty("banner");
    expect(at("1.11")[0]).not.toHaveProperty("idle_timeout");
  });

  it("changes name and NTP servers, validating their types", () => {
    const { state } = sim();
    const [a] = items(
      call(state, "PATCH", "/arrays", { body: { name: "fb-renamed", ntp_servers: ["0.pool.ntp.org"] } }),
    );
    expect(a).toMatchObject({ name: "fb-renamed", ntp_servers: ["0.pool.ntp.org"] });
    expect400(
      state,
      "PATCH",
      "/arrays",
      { body: { ntp_servers: "0.pool.ntp.org" } },
      /'ntp_servers'.*expected array/,
    );
    expect400(state, "PATCH", "/arrays", { body: { name: 42 } }, /'name'.*expected string/);
    expect400(state, "PATCH", "/arrays", { body: { version: "9.9" } }, /'version' is read-only/);
    expect400(state, "PATCH", "/arrays", { body: { idle_timeout: 5 } }, /must be 0 or 300000-10800000/);
    expect400(
      state,
      "PATCH",
      "/arrays",
      { body: { time_zone: "Mars/Olympus" } },
      /'time_zone'.*IANA time zone/,
    );
    expect(
      items(call(state, "PATCH", "/arrays", { body: { time_zone: "Europe/Berlin" } }))[0]?.["time_zone"],
    ).toBe("Europe/Berlin");
    expect400(
      state,
      "PATCH",
      "/arrays",
      { version: "1.9", body: { banner: "hi" } },
      /'banner' is not a field of PureArray in REST 1.9/,
    );
    // Snapshots report the array by its new name.
    expect(
      list(state, "/file-system-snapshots", "names_or_sources=home.before-upgrade").items[0]?.[
        "source_location"
      ].name,
    ).toBe("fb-renamed");
  });
});

describe("/arrays/space", () => {
  it("answers array, file-system and object-store space; destroyed objects still count", () => {
    const { state, clock } = sim();
    const one = (type: string) => list(state, "/arrays/space", `type=${type}`).items;
    const [array] = one("array");
    const [fsOnly] = one("file-system");
    const [objects] = one("object-store");
    expect(array).toMatchObject({
      name: "fb-test",
      capacity: expect.any(Number),
      parity: expect.any(Number),
      time: clock.now,
    });
    expect(array?.["space"].virtual).toBe(fsOnly?.["space"].virtual + objects?.["space"].virtual);
    const fsSum = list(state, "/file-systems").items.reduce((s, f) => s + f["space"].virtual, 0);
    expect(fsOnly?.["space"].virtual).toBe(fsSum);
    expect(list(state, "/arrays/space", "type=ARRAY").items).toHaveLength(1);
    expect400(
      state,
      "GET",
      "/arrays/space",
      { query: "type=volumes" },
      /'type' must be one of array, file-system, object-store/,
    );
  });
});

describe("performance series", () => {
  it("answers one instantaneous sample without a window", () => {
    const { state, clock } = sim();
    const env = list(state, "/arrays/performance");
    expect(env.items).toHaveLength(1);
    expect(env.items[0]).toMatchObject({ name: "fb-test", time: clock.now });
    for (const [k, v] of Object.entries(env.items[0] ?? {}))
      if (k !== "name") expect(Number.isInteger(v)).toBe(true);
  });

  it("answers a series from start to end every resolution ms, default 30 s, aligned to the resolution", () => {
    const { state, clock } = sim();
    const end = clock.now;
    const start = end - HOUR;
    const def = list(state, "/arrays/performance", q({ start_time: start, end_time: end })).items;
    expect(def).toHaveLength(121);
    expect(def[1]?.["time"] - def[0]?.["time"]).toBe(30_000);
    const coarse = list(
      state,
      "/arrays/performance",
      q({ start_time: start + 1, end_time: end, resolution: 300_000 }),
    ).items;
    expect(coarse.map((s) => s["time"] % 300_000)).toEqual(new Array(coarse.length).fill(0));
    expect(coarse).toHaveLength(12);
    // A window into the future stops at now; start alone runs to now.
    expect(
      list(state, "/arrays/performance", q({ start_time: start, end_time: end + HOUR })).items,
    ).toHaveLength(121);
    expect(list(state, "/arrays/performance", q({ start_time: start })).items).toHaveLength(121);
  });

  it("is deterministic, never negative, and differs per protocol (case-insensitive)", () => {
    const { state, clock } = sim();
    const qs = q({
      start_time: clock.now - 6 * HOUR,
      end_time: clock.now,
      resolution: 60_000,
      protocol: "NFS",
    });
    const a = list(state, "/arrays/performance", qs).items;
    const b = list(sim().state, "/arrays/performance", qs).items;
    expect(a).toEqual(b);
    expect(a.every(nonNegative)).toBe(true);
    const s3 = list(state, "/arrays/performance", "protocol=s3").items[0];
    const all = list(state, "/arrays/performance", "protocol=all").items[0];
    expect(s3?.["reads_per_sec"]).toBeLessThan(all?.["reads_per_sec"]);
    expect400(
      state,
      "GET",
      "/arrays/performance",
      { query: "protocol=iscsi" },
      /'protocol' must be one of all, nfs, smb, http, s3/,
    );
    const early = list(state, "/arrays/performance", "", "1.2").items[0];
    expect(early).not.toHaveProperty("read_bytes_per_sec");
    expect(early).toHaveProperty("output_per_sec");
  });

  it("refuses bad windows and resolutions, and more than 10,000 samples", () => {
    const { state, clock } = sim();
    const now = clock.now;
    expect400(
      state,
      "GET",
      "/arrays/performance",
      { query: q({ start_time: now, end_time: now - 1 }) },
      /'end_time' must not be before 'start_time'/,
    );
    expect400(
      state,
      "GET",
      "/arrays/performance",
      { query: q({ end_time: now }) },
      /'end_time' needs 'start_time'/,
    );
    expect400(
      state,
      "GET",
      "/arrays/performance",
      { query: q({ start_time: now + HOUR }) },
      /'start_time' is in the future/,
    );
    expect400(
      state,
      "GET",
      "/arrays/performance",
      { query: q({ start_time: now - HOUR, resolution: 0 }) },
      /'resolution' must be at least 1000 ms/,
    );
    expect400(
      state,
      "GET",
      "/arrays/performance",
      { query: q({ start_time: now - 400 * HOUR }) },
      /48001 samples at 30000 ms; at most 10000/,
    );
    expect400(state, "GET", "/arrays/performance", { query: "start_time=yesterday" }, /start_time/);
    expect(
      list(state, "/arrays/performance", q({ start_time: now - 400 * HOUR, resolution: 3_600_000 })).items,
    ).toHaveLength(401);
  });

  it("answers the replication totals of connections and targets with their async figures at 1.12", () => {
    const { state } = sim();
    for (const path of ["/array-connections/performance/replication", "/targets/performance/replication"]) {
      const { total } = list(state, path, "", "1.12") as { total?: Record<string, unknown>[] };
      // Ansible reads total[0].periodic through purity_fb, whose wire key is `async`: a `periodic` key read null.
      expect(total?.[0]?.["async"], path).toEqual({
        transmitted_bytes_per_sec: expect.any(Number),
        received_bytes_per_sec: expect.any(Number),
      });
    }
  });

  it("keeps the replication throughput key async in every 1.x version (the SDK reads it so at 1.12)", () => {
    const { state } = sim();
    const old = list(state, "/arrays/performance/replication", "", "1.11").items[0];
    const neu = list(state, "/arrays/performance/replication", "type=file-system", "1.12").items[0];
    expect(old?.["async"]).toEqual({
      transmitted_bytes_per_sec: expect.any(Number),
      received_bytes_per_sec: expect.any(Number),
    });
    expect(old).not.toHaveProperty("periodic");
    expect(neu).toHaveProperty("async");
    expect(neu).not.toHaveProperty("periodic");
    expect(list(state, "/array-connections/performance/replication", "", "1.11").items[0]).toHaveProperty(
      "async",
    );
    expect400(
      state,
      "GET",
      "/arrays/performance/replication",
      { query: "type=block" },
      /'type' must be one of/,
    );
  });

  it("serves the protocol-specific models with their own fields", () => {
    const { state } = sim();
    expect(Object.keys(list(state, "/arrays/nfs-specific-performance").items[0] ?? {})).toHaveLength(51);
    expect(list(state, "/arrays/s3-specific-performance").items[0]).toHaveProperty("read_objects_per_sec");
    expect(list(state, "/arrays/http-specific-performance").items[0]).toHaveProperty("usec_per_read_dir_op");
    expect(
      [
        ...list(state, "/arrays/nfs-specific-performance").items,
        ...list(state, "/arrays/s3-specific-performance").items,
      ].every(nonNegative),
    ).toBe(true);
  });
});

describe("per-object performance", () => {
  it("names clients <address>:<port>, with a total list from 1.11", () => {
    const { state } = sim();
    const env = list(state, "/arrays/clients/performance", q({ sort: "reads_per_sec-", limit: 3 }), "1.11");
    expect(env.items).toHaveLength(3);
    expect(env.items.every((c) => /^\d+\.\d+\.\d+\.\d+:\d+$/.test(c["name"]))).toBe(true);
    expect(env.items[0]?.["reads_per_sec"]).toBeGreaterThanOrEqual(env.items[1]?.["reads_per_sec"]);
    const totals = list(state, "/arrays/clients/performance", "total_only=true", "1.11").total;
    expect(Array.isArray(totals)).toBe(true);
    expect400(
      state,
      "GET",
      "/arrays/clients/performance",
      { version: "1.10", query: "total_only=true" },
      /total_only/,
    );
  });

  it("serves file system performance per file system, as series when asked", () => {
    const { state, clock } = sim();
    const now = list(state, "/file-systems/performance", "names=home,logs").items;
    expect(now.map((p) => p["name"])).toEqual(["home", "logs"]);
    expect(now.every(nonNegative)).toBe(true);
    const series = list(
      state,
      "/file-systems/performance",
      q({ names: "home", start_time: clock.now - HOUR, resolution: 600_000 }),
    ).items;
    expect(series).toHaveLength(7);
    expect(list(state, "/file-systems/performance", "names=home", "1.7").items[0]).not.toHaveProperty("id");
    expect400(
      state,
      "GET",
      "/file-systems/performance",
      { query: q({ start_time: clock.now - 3 * 24 * HOUR }) },
      /narrow it with 'names'/,
    );
    expect(list(state, "/buckets/performance", "names=veeam-repo").items[0]).toMatchObject({
      name: "veeam-repo",
    });
  });
});
