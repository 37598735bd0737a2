/**
 * Where the golden renders live for this run's generation (issue 41: "golden renders keep a 2.x set, differing
 * from the 1.x set only in the request lines"): test/slack/golden/ for REST 1.x, test/slack/golden-2x/ for the
 * `npm run test:rest2` run. Regenerate the 2.x set with `UPDATE_GOLDEN=1 REST2_SUITE=test/slack npm run
 * test:rest2 -- test/slack/golden.test.ts test/slack/surfaces-golden.test.ts`; test/slack/golden-generations.test.ts
 * checks the two sets differ only in lines that name `/api/`.
 */
import { REST2 } from "../../helpers/wire.js";

export const GOLDEN_1X = new URL("../golden/", import.meta.url).pathname;
export const GOLDEN_2X = new URL("../golden-2x/", import.meta.url).pathname;
/** This run's golden directory. */
export const GOLDEN_DIR = REST2 ? GOLDEN_2X : GOLDEN_1X;
