import { describe, expect, it } from "vitest";
import { bucketSchema } from "../../src/flashblade/schemas.js";
import { bucketCreate } from "../../src/flashblade/wire.js";
import { poolOf, simConfig, startSim } from "./sim.js";

// The simulator refuses a BucketPost that names its account anywhere but `account`, as arrays do; creating
// through the client at each version is what proves the client's body has the array's shape.
describe("bucket create over the wire", () => {
  for (const version of ["1.8", "1.9", "1.12"]) {
    it(`sends {"account": {"name": …}} at REST ${version} and the array accepts it`, async () => {
      const sim = await startSim({ scenario: "demo", versions: `1.0-${version}` });
      const c = poolOf([simConfig(sim)]).list()[0]!;
      // As `bucket create` plans and sends it.
      const name = `wire-${version.replace(".", "-")}`;
      const [made] = await c.post("/buckets", {
        ...bucketCreate(await c.version(), name, "analytics"),
        schema: bucketSchema,
      });
      expect(made?.name).toBe(`wire-${version.replace(".", "-")}`);
      expect(await c.version()).toBe(version);
    });
  }
});
