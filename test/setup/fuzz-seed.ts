/**
 * The seed of every property test in a run. Outside CI each run draws a new seed and keeps exploring; CI uses
 * one fixed seed, so a red build is about the change under test and not about the draw (the counterexamples
 * random runs found are kept as plain unit tests beside the code they broke). `FUZZ_SEED=<n> npm test` replays
 * any run: fast-check prints the seed and path of every failure.
 */
import fc from "fast-check";

const CI_SEED = 20_261_125;

const fromEnv = process.env["FUZZ_SEED"];
const seed =
  fromEnv !== undefined && fromEnv !== "" ? Number(fromEnv) : process.env["CI"] ? CI_SEED : undefined;
if (seed !== undefined && Number.isInteger(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
