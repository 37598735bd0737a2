/** Tests drive time with the same manual clock the replay and the benchmark use. */
export { ManualClock as FakeClock } from "../../../src/alerts/manual-clock.js";
