/**
 * The array's own eradication: a destroyed file system goes when its timer runs out (24 h), and the load test
 * compresses that timer (`eradicateExpired(state, delayMs)`) to keep its arrays the size of a steady fleet.
 */
import { describe, expect, it } from "vitest";
import { eradicateExpired } from "../../../src/simulator/state-control.js";
import { call, DAY, list, sim } from "./helpers.js";

describe("eradication when the timer runs out", () => {
  it("takes what was destroyed at least the delay ago, leaves the newer, and follows the 24-hour timer by default", () => {
    const { state, clock } = sim("empty");
    const [first, second] = ["era-1", "era-2"];
    for (const name of [first, second]) call(state, "POST", "/file-systems", { body: { name } });
    const destroy = (name: string) =>
      call(state, "PATCH", "/file-systems", { query: `name=${name}`, body: { destroyed: true } });
    destroy(first);
    clock.advance(30_000);
    destroy(second);
    clock.advance(30_000);

    // A minute after the first destroy: not yet on the array's own 24-hour timer.
    expect(eradicateExpired(state)).toEqual([]);
    // With a one-minute delay only the first has run out.
    expect(eradicateExpired(state, 60_000)).toEqual([first]);
    const left = list(state, "/file-systems", "destroyed=true").items.map((i) => String(i["name"]));
    expect(left).toContain(second);
    expect(left).not.toContain(first);

    clock.advance(DAY);
    expect(eradicateExpired(state)).toEqual([second]);
  });
});
