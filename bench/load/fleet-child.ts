/** The load test's arrays in their own process (fleet.ts starts it): `--arrays N [--faults]`. */
import { parseArgs } from "node:util";
import { serveFleet } from "./fleet.js";

const { values } = parseArgs({
  options: { arrays: { type: "string" }, faults: { type: "boolean", default: false } },
});
await serveFleet({ arrays: Number(values.arrays ?? 200), faults: values.faults === true });
