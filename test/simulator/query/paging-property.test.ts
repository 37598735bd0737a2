import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileFilter,
  createCursorStore,
  type ListOptions,
  listItems,
} from "../../../src/simulator/query/index.js";
import { qs, request } from "./request.js";

interface Item {
  id: string;
  name: string;
  size: number;
  tag: string;
}

const itemSet = fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 60 }).chain((ids) =>
  fc.tuple(
    ...ids.map((n) =>
      fc.record({
        id: fc.constant(`id-${n}`),
        name: fc.constant(`fs${n}`),
        size: fc.integer({ min: 0, max: 20 }),
        tag: fc.constantFrom("a", "B", "a*"),
      }),
    ),
  ),
);
const filter = fc.constantFrom(
  undefined,
  "size>5",
  "tag='a'",
  "size<3 or tag='b'",
  "not(tag='a*')",
  "tag='a*'",
);

function firstQuery(limit: number, start: number, expr: string | undefined): string {
  return qs({ limit, start, ...(expr === undefined ? {} : { filter: expr }) });
}

describe("paging properties", () => {
  it("returns exactly the filtered items once, in order, whatever the page size", () => {
    fc.assert(
      fc.property(
        itemSet,
        filter,
        fc.integer({ min: 1, max: 70 }),
        fc.nat(10),
        (items, expr, limit, start) => {
          const opts: ListOptions = { totals: "object", cursors: createCursorStore() };
          const expected = (expr === undefined ? items : items.filter(compileFilter(expr))).slice(start);
          let result = listItems(items, request(firstQuery(limit, start, expr)), opts);
          const seen = [...result.items];
          while (result.pagination_info.continuation_token !== null) {
            expect(result.items).toHaveLength(limit);
            result = listItems(
              items,
              request(qs({ token: result.pagination_info.continuation_token })),
              opts,
            );
            expect(result.items.length).toBeLessThanOrEqual(limit);
            seen.push(...result.items);
          }
          expect(seen).toEqual(expected);
          expect(opts.cursors?.size).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never repeats an item and keeps every surviving one while items are deleted and added between pages", () => {
    fc.assert(
      fc.property(
        itemSet,
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (initial, limit, deletions) => {
          const items: Item[] = [...initial];
          const opts: ListOptions = { totals: "none", cursors: createCursorStore() };
          const deleted = new Set<string>();
          let result = listItems(items, request(qs({ limit })), opts);
          const seen = result.items.map((i) => i.name);
          let round = 0;
          while (result.pagination_info.continuation_token !== null) {
            const victim = deletions[round];
            if (victim !== undefined && items.length > 0) {
              const [removed] = items.splice(victim % items.length, 1);
              if (removed) deleted.add(removed.name);
            }
            items.splice(round % (items.length + 1), 0, {
              id: `new${round}`,
              name: `new${round}`,
              size: 0,
              tag: "a",
            });
            round++;
            result = listItems(
              items,
              request(qs({ token: result.pagination_info.continuation_token })),
              opts,
            );
            seen.push(...result.items.map((i) => i.name));
          }
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen.some((name) => name.startsWith("new"))).toBe(false);
          const survivors: string[] = initial.map((i) => i.name).filter((name) => !deleted.has(name));
          expect(survivors.every((name) => seen.includes(name))).toBe(true);
          expect(seen.every((name) => survivors.includes(name) || deleted.has(name))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
