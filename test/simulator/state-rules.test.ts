/**
 * A demo built through the rules: every seeded object of every scenario passes the rules the request that made
 * it would have met (src/simulator/state-rules.ts, calling the handlers' own rule functions), and a state
 * broken the ways earlier scenarios were broken is caught.
 */
import { describe, expect, it } from "vitest";
import { freshLinkHealth } from "../../src/simulator/models/replication.js";
import { SCENARIOS, type StateOptions } from "../../src/simulator/state.js";
import { refusedObjects } from "../../src/simulator/state-rules.js";
import { sim } from "./resources/helpers.js";

const ALL: StateOptions["scenario"][] = [
  ...(Object.keys(SCENARIOS) as (keyof typeof SCENARIOS)[]),
  { scale: { fileSystems: 500 } },
];

describe("seeded state obeys the array's rules", () => {
  it.each(ALL.map((s) => [typeof s === "string" ? s : "scale", s] as const))(
    "scenario %s: no seeded object is refused",
    (_name, scenario) => {
      const { state } = sim(scenario);
      expect(state.fileSystems.size + state.generic.size).toBeGreaterThan(0);
      expect(refusedObjects(state)).toEqual([]);
    },
  );

  it("a file system destroyed while it serves SMB is refused, as its destroy would be", () => {
    const { state } = sim("demo");
    const fs = state.fileSystems.get("media");
    if (!fs) throw new Error("demo has media");
    fs.destroyed = true;
    expect(refusedObjects(state)).toEqual([
      expect.stringMatching(/^file system 'media': .*still serves SMB/),
    ]);
  });

  it("a demoted file system without a link, or a writable one, is refused", () => {
    const { state } = sim("demo");
    const media = state.fileSystems.get("media");
    const home = state.fileSystems.get("home");
    if (!media || !home) throw new Error("demo has media and home");
    media.requested_promotion_state = "demoted";
    media.writable = false;
    home.requested_promotion_state = "demoted";
    home.writable = true;
    expect(refusedObjects(state)).toEqual([
      expect.stringMatching(/^file system 'home': .*is demoted; promote it/),
      expect.stringMatching(/^file system 'media': .*has no replica link/),
    ]);
  });

  it("an encrypted connection without its CA group, a transfer at 35, a link without credentials are refused", () => {
    const { state } = sim("demo");
    const conn = [...state.arrayConnections.values()][0];
    if (!conn) throw new Error("demo has connections");
    conn.ca_certificate_group = null;
    const transfer = state.generic.get("/file-system-snapshots/transfer")?.items.get("home.before-upgrade");
    if (transfer) transfer["progress"] = 35;
    const id = state.newId();
    state.bucketReplicaLinks.set(id, {
      id,
      localBucket: "analytics-raw",
      remoteId: conn.id,
      remoteBucket: "x",
      remoteCredentials: "fb-dr-01/nothing",
      ...freshLinkHealth(),
    });
    expect(refusedObjects(state)).toEqual([
      expect.stringMatching(
        /^array connection to 'fb-dr-01': .*should name certificate group '_default_replication_certs'/,
      ),
      expect.stringMatching(
        /^replica link of bucket 'analytics-raw': Remote credentials 'fb-dr-01\/nothing' do not exist/,
      ),
      expect.stringMatching(/^transfer 'home.before-upgrade': .*progress 35/),
    ]);
  });
});
