/** `npm run bench:report`: rebuilds docs/benchmarks.md and the README table from bench/results, running nothing. */
import { writeReport } from "./report/write.js";

writeReport();
console.log("wrote docs/benchmarks.md and the README table");
