/** The load test's arrays in their own process (fleet.ts starts it): `--arrays N [--faults] [--eradicate-after-ms MS]`. */
import { parseArgs } from "node:util";
import { serveFleet } from "./fleet.js";

const { values } = parseArgs({
  options: {
    arrays: { type: "string" },
    faults: { type: "boolean", default: false },
    "eradicate-after-ms": { type: "string" },
  },
});
const after = values["eradicate-after-ms"];
await serveFleet({
  arrays: Number(values.arrays ?? 200),
  faults: values.faults === true,
  ...(after === undefined ? {} : { eradicateAfterMs: Number(after) }),
});
