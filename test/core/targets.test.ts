/**
 * Which arrays a command targets, at fleet size: a refusal names a few of the arrays the channel may use and
 * counts the rest, so a channel bound to hundreds of arrays does not answer with hundreds of names. A real
 * pool of configured arrays; resolving makes no call to any of them.
 */
import { afterAll, describe, expect, it } from "vitest";
import { channelsSchema } from "../../src/config/schema.js";
import { createTargetResolver } from "../../src/core/requests/targets.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { arrayConfig, captureLogger } from "../flashblade/helpers.js";

const names = Array.from({ length: 30 }, (_, i) => `fb-${String(i).padStart(2, "0")}`);
const pool = createArrayPool(
  names.map((name, i) =>
    arrayConfig({ name, origin: "https://127.0.0.1:9", tags: i < 20 ? ["prod"] : ["lab"] }),
  ),
  { logger: captureLogger().logger },
);
afterAll(async () => pool.close());

const channels = channelsSchema.parse({ bindings: { "C-PROD": { arrays: ["tag:prod"] } } });
const targets = createTargetResolver(pool, channels);

function refusal(spec: string | undefined, channel: string): string {
  try {
    targets.resolve(spec, channel);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`"${spec}" was not refused in ${channel}`);
}

describe("targets over a fleet", () => {
  it("a refused array names the first eight the channel may use and counts the rest", () => {
    const text = refusal("fb-25", "C-PROD");
    expect(text).toBe(
      "This channel may not target array fb-25; it may use: fb-00, fb-01, fb-02, fb-03, fb-04, fb-05, fb-06, fb-07 and 12 more (`arrays list` names them).",
    );
  });

  it("asking which array counts the rest too", () => {
    expect(refusal(undefined, "C-OTHER")).toContain("fb-07 and 22 more");
  });

  it("a named, a tagged and every permitted array resolve as before", () => {
    expect(targets.resolve("fb-03", "C-PROD").map((c) => c.name)).toEqual(["fb-03"]);
    expect(targets.resolve("tag:lab", "C-OTHER")).toHaveLength(10);
    expect(targets.resolve("all", "C-PROD")).toHaveLength(20);
    expect(refusal("tag:lab", "C-PROD")).toBe('No array this channel may use has tag "lab".');
  });
});
