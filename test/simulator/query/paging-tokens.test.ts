import { describe, expect, it } from "vitest";
import { createCursorStore, type ListOptions, listItems } from "../../../src/simulator/query/index.js";
import { freshOptions, makeItems, walk } from "./paging-fixtures.js";
import { httpError, qs, request } from "./request.js";

describe("token validity", () => {
  const items = makeItems(10);

  const tokenFor = (opts: ListOptions, path = "/file-systems") =>
    listItems(items, request("limit=2", path), opts).pagination_info.continuation_token ?? "";
  const next = (opts: ListOptions, token: string, path = "/file-systems") =>
    listItems(items, request(qs({ token }), path), opts);
  const message =
    "The continuation token is unknown or has expired. Start the listing again without a token.";
  const expectInvalid = (fn: () => unknown) => {
    const err = httpError(fn);
    expect([err.status, err.message, err.context]).toEqual([400, message, "token"]);
  };

  it("rejects unknown, mangled and foreign tokens", () => {
    const opts = freshOptions();
    const token = tokenFor(opts);
    expect(next(opts, token).items).toHaveLength(2);
    expectInvalid(() => next(opts, "not-a-token"));
    expectInvalid(() => next(opts, `${token}x`));
    expectInvalid(() => next(opts, token.slice(1)));
    expectInvalid(() => next(opts, Buffer.from("AAAAAAAAAAAAAAAA:0").toString("base64url")));
    expectInvalid(() => next(opts, token, "/buckets"));
    expectInvalid(() => next(freshOptions(), token));
  });

  it("rejects a token whose position was forged past the end", () => {
    const opts = freshOptions();
    const token = tokenFor(opts);
    const [id] = Buffer.from(token, "base64url").toString().split(":");
    expectInvalid(() => next(opts, Buffer.from(`${id}:999`).toString("base64url")));
    expect(next(opts, Buffer.from(`${id}:8`).toString("base64url")).items).toHaveLength(0);
  });

  it("forgets a cursor once its last page was served", () => {
    const opts = freshOptions();
    const first = listItems(items, request("limit=8"), opts);
    const token = first.pagination_info.continuation_token ?? "";
    expect(next(opts, token).pagination_info.continuation_token).toBeNull();
    expectInvalid(() => next(opts, token));
    expect(opts.cursors?.size).toBe(0);
  });

  it("expires idle cursors by the injected clock", () => {
    let now = 1_000_000;
    const opts = freshOptions({ cursors: createCursorStore({ idleMs: 60_000, clock: () => now }) });
    const kept = tokenFor(opts);
    const idle = tokenFor(opts);
    now += 50_000;
    const keptNext = next(opts, kept).pagination_info.continuation_token ?? "";
    now += 50_000;
    expectInvalid(() => next(opts, idle));
    expect(next(opts, keptNext).items).toHaveLength(2);
  });

  it("evicts the least recently used cursor beyond the bound", () => {
    const opts = freshOptions({ cursors: createCursorStore({ maxCursors: 2 }) });
    const a = tokenFor(opts);
    const b = tokenFor(opts);
    const aNext = next(opts, a).pagination_info.continuation_token ?? "";
    tokenFor(opts);
    expect(opts.cursors?.size).toBe(2);
    expectInvalid(() => next(opts, b));
    expect(next(opts, aNext).items).toHaveLength(2);
  });
});

describe("paging a large collection", () => {
  it("visits each of 100,000 items once with limit 1000, reading the array a bounded number of times", () => {
    const plain = makeItems(100_000);
    let reads = 0;
    // Counts element reads so a quadratic walk (re-reading the collection per page) would show in the numbers.
    const items = new Proxy(plain, {
      get(target, prop, receiver) {
        if (typeof prop === "string" && /^\d+$/.test(prop)) reads++;
        return Reflect.get(target, prop, receiver);
      },
    });
    const opts = freshOptions();
    const { names, pages, counts } = walk(() => items, "limit=1000", opts);
    expect(pages).toBe(100);
    expect(names).toHaveLength(100_000);
    expect(new Set(names).size).toBe(100_000);
    expect(names[0]).toBe("fs0");
    expect(names[99_999]).toBe("fs99999");
    expect(counts.every((count) => count === 100_000)).toBe(true);
    expect(reads).toBeLessThan(4 * 100_000);
    expect(opts.cursors?.size).toBe(0);
  });
});
