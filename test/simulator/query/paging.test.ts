import { describe, expect, it } from "vitest";
import { listItems } from "../../../src/simulator/query/index.js";
import { freshOptions, type Item, makeItems, walk } from "./paging-fixtures.js";
import { httpError, qs, request } from "./request.js";

describe("start and limit", () => {
  const items = makeItems(10);
  const opts = freshOptions();
  const page = (search: string) => listItems(items, request(search), opts);

  it.each([
    ["start=2&limit=3", ["fs2", "fs3", "fs4"], true],
    ["limit=10", makeItems(10).map((i) => i.name), false],
    ["limit=11", makeItems(10).map((i) => i.name), false],
    ["start=8&limit=2", ["fs8", "fs9"], false],
    ["start=8&limit=5", ["fs8", "fs9"], false],
    ["start=10", [], false],
    ["start=99&limit=1", [], false],
    ["limit=0", [], false],
    ["sort=size-&limit=2", ["fs9", "fs8"], false],
    ["sort=size&start=4&limit=2", ["fs4", "fs5"], false],
  ])("%s returns %j; continuation token: %s", (search, names, hasToken) => {
    const result = page(search);
    expect(result.items.map((i) => i.name)).toEqual(names);
    expect(result.pagination_info.total_item_count).toBe(10);
    expect(result.pagination_info.continuation_token !== null).toBe(hasToken);
  });

  it.each([
    ["start=-1", "Invalid value for query parameter 'start': -1 must be >= 0.", "start"],
    ["limit=-1", "Invalid value for query parameter 'limit': -1 must be >= 0.", "limit"],
    ["limit=abc", "Invalid value for query parameter 'limit': \"abc\" is not an integer.", "limit"],
    ["token=", "The token parameter is empty; pass the continuation_token you received.", "token"],
  ])("%s is a 400", (search, message, context) => {
    const err = httpError(() => page(search));
    expect([err.status, err.message, err.context]).toEqual([400, message, context]);
  });
});

describe("continuation tokens", () => {
  it("walks a filtered listing exactly once, with the count after filtering on every page", () => {
    const items = makeItems(25);
    const { names, pages, counts } = walk(() => items, qs({ filter: "size>=5", limit: 4 }), freshOptions());
    expect(names).toEqual(items.slice(5).map((i) => i.name));
    expect(pages).toBe(5);
    expect(counts).toEqual([20, 20, 20, 20, 20]);
  });

  it("lets a later page change the page size, and replays a page when its token is retried", () => {
    const items = makeItems(10);
    const opts = freshOptions();
    const first = listItems(items, request("limit=3"), opts);
    const token = first.pagination_info.continuation_token ?? "";
    const second = listItems(items, request(qs({ token, limit: 5 })), opts);
    expect(second.items.map((i) => i.name)).toEqual(["fs3", "fs4", "fs5", "fs6", "fs7"]);
    const retried = listItems(items, request(qs({ token, limit: 5 })), opts);
    expect(retried).toEqual(second);
    const last = listItems(
      items,
      request(qs({ token: second.pagination_info.continuation_token ?? "" })),
      opts,
    );
    expect(last.items.map((i) => i.name)).toEqual(["fs8", "fs9"]);
    expect(last.pagination_info.continuation_token).toBeNull();
  });

  it("returns each item exactly once while items are inserted and deleted in place between pages", () => {
    const items = makeItems(50);
    const deletedWhilePending = new Set<string>();
    const { names } = walk(
      () => items,
      "limit=7",
      freshOptions(),
      (page, returned) => {
        // Delete one item still pending and one already returned; insert at the front and at the back.
        const pending = items.filter((i) => !returned.has(i.name) && i.name.startsWith("fs"));
        const victim = pending[pending.length - 1 - page];
        if (victim) {
          deletedWhilePending.add(victim.name);
          items.splice(items.indexOf(victim), 1);
        }
        items.splice(
          items.findIndex((i) => returned.has(i.name)),
          1,
        );
        items.unshift({ id: `new-front-${page}`, name: `new-front-${page}`, size: -page });
        items.push({ id: `new-back-${page}`, name: `new-back-${page}`, size: 1000 + page });
      },
    );
    const expected = makeItems(50)
      .map((i) => i.name)
      .filter((name) => !deletedWhilePending.has(name));
    expect(deletedWhilePending.size).toBeGreaterThan(3);
    expect(names).toEqual(expected);
  });

  it("returns the current version of a replaced item and skips one that stopped matching", () => {
    const items = makeItems(6);
    const opts = freshOptions();
    const first = listItems(items, request(qs({ filter: "size<100", limit: 2 })), opts);
    items[3] = { id: "fs-id-3", name: "renamed3", size: 3 };
    items[4] = { id: "fs-id-4", name: "fs4", size: 400 };
    const rest = listItems(
      items,
      request(qs({ token: first.pagination_info.continuation_token ?? "" })),
      opts,
    );
    expect(rest.items.map((i) => i.name)).toEqual(["fs2", "renamed3"]);
    const last = listItems(
      items,
      request(qs({ token: rest.pagination_info.continuation_token ?? "" })),
      opts,
    );
    expect(last.items.map((i) => i.name)).toEqual(["fs5"]);
  });

  it("works when the handler passes a fresh array on each request", () => {
    const state = new Map(makeItems(30).map((i) => [i.id, i]));
    const front: Item[] = [];
    const deletedWhilePending = new Set<string>();
    const { names } = walk(
      () => [...front, ...[...state.values()].map((i) => ({ ...i }))],
      "limit=4",
      freshOptions(),
      (page, returned) => {
        // Deletions on both sides of the page boundary and insertions at the front move every pending item.
        for (const id of [`fs-id-${30 - page}`, `fs-id-${page}`]) {
          const victim = state.get(id);
          if (victim && !returned.has(victim.name)) deletedWhilePending.add(victim.name);
          state.delete(id);
        }
        front.unshift(
          { id: `extra-${page}`, name: `extra-${page}`, size: 0 },
          { id: `x${page}`, name: `x${page}`, size: 0 },
        );
      },
    );
    expect(deletedWhilePending.size).toBeGreaterThan(3);
    expect(names).toEqual(
      makeItems(30)
        .map((i) => i.name)
        .filter((name) => !deletedWhilePending.has(name)),
    );
  });

  it("uses the handler's lookup so a continuation page reads only its own items", () => {
    const items = makeItems(100);
    const byId = new Map(items.map((i) => [i.id, i]));
    let lookups = 0;
    const opts = freshOptions({
      lookup: (key) => {
        lookups++;
        return byId.get(String(key));
      },
    });
    const { names, pages } = walk(() => items, "limit=10", opts);
    expect(names).toHaveLength(100);
    expect(pages).toBe(10);
    expect(lookups).toBe(90);
  });

  it("resumes items without id or name by position, and honours a custom key", () => {
    const anonymous = Array.from({ length: 5 }, (_, i) => ({ size: i }));
    const opts = freshOptions();
    const first = listItems(anonymous, request("limit=2"), opts);
    const token = first.pagination_info.continuation_token ?? "";
    const rest = listItems(anonymous, request(qs({ token, limit: 10 })), opts);
    expect([...first.items, ...rest.items].map((i) => i.size)).toEqual([0, 1, 2, 3, 4]);

    const quotas = [1, 2, 3, 4].map((uid) => ({ file_system: "fs1", user: { id: uid }, usage: uid }));
    const keyed = freshOptions({ keyOf: (item) => `fs1/${(item as { user: { id: number } }).user.id}` });
    const page1 = listItems(quotas, request("limit=2"), keyed);
    quotas.shift();
    const page2 = listItems(
      quotas,
      request(qs({ token: page1.pagination_info.continuation_token ?? "" })),
      keyed,
    );
    expect(page2.items.map((q) => q.user.id)).toEqual([3, 4]);
  });

  it("ignores other parameters sent along with a token", () => {
    const items = makeItems(6);
    const opts = freshOptions();
    const first = listItems(items, request("limit=2&filter=size%3C4"), opts);
    const token = first.pagination_info.continuation_token ?? "";
    const next = listItems(items, request(qs({ token, filter: "size>100", names: "nope" })), opts);
    expect(next.items.map((i) => i.name)).toEqual(["fs2", "fs3"]);
  });
});
