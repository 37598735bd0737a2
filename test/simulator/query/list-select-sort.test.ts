import { describe, expect, it } from "vitest";
import { type ListOptions, listItems } from "../../../src/simulator/query/index.js";
import { httpError, qs, request } from "./request.js";

interface Fs {
  id: string;
  name: string;
  provisioned?: number | null;
  space?: { virtual: number };
  label?: string | boolean | number;
}

const items: Fs[] = [
  { id: "i1", name: "beta", provisioned: 300, space: { virtual: 30 }, label: "b" },
  { id: "i2", name: "Alpha", provisioned: 100, space: { virtual: 10 }, label: 7 },
  { id: "i3", name: "gamma", provisioned: null, space: { virtual: 20 }, label: "A" },
  { id: "i4", name: "delta", provisioned: 100, label: true },
  { id: "i5", name: "fs 2", provisioned: 200, space: { virtual: 40 } },
];
const opts: ListOptions = { totals: "object", noun: "File system" };
const names = (search: string, o: ListOptions = opts) =>
  listItems(items, request(search), o).items.map((i) => i.name);

describe("listItems selection", () => {
  it("returns everything in the envelope without parameters", () => {
    expect(listItems(items, request(""), opts)).toEqual({
      pagination_info: { continuation_token: null, total_item_count: 5 },
      items,
    });
  });

  it.each([
    ["names=beta", ["beta"]],
    ["names=gamma%2Cfs+2", ["gamma", "fs 2"]],
    ["names=delta,beta", ["beta", "delta"]],
    ["names=beta,beta", ["beta"]],
    ["ids=i2,i4", ["Alpha", "delta"]],
  ])("%s selects %j in collection order", (search, expected) => {
    expect(names(search)).toEqual(expected);
  });

  it.each([
    ["names=beta,nope", "File system 'nope' does not exist.", "nope"],
    ["names=alpha", "File system 'alpha' does not exist.", "alpha"],
    ["ids=i1,i9", "File system with id 'i9' does not exist.", "i9"],
    [
      "ids=i1&names=beta",
      "The ids parameter cannot be combined with names; select by one or the other.",
      "ids",
    ],
    [
      "ids=i1&name=beta",
      "The ids parameter cannot be combined with name; select by one or the other.",
      "ids",
    ],
    ["names=", "The names parameter is empty; give at least one value.", "names"],
  ])("%s is a 400: %s", (search, message, context) => {
    const err = httpError(() => listItems(items, request(search), opts));
    expect([err.status, err.message, err.context]).toEqual([400, message, context]);
  });

  it("selects by the configured parameters and fields", () => {
    const byLabel: ListOptions = { totals: "none", nameParams: ["labels"], nameField: "label" };
    expect(names("labels=b,A", byLabel)).toEqual(["beta", "gamma"]);
    expect(names("names=nope", byLabel)).toHaveLength(5);
    expect(httpError(() => names("labels=zz", byLabel)).message).toBe("Item 'zz' does not exist.");
    const byName: ListOptions = { totals: "none", idField: "name" };
    expect(names("ids=beta", byName)).toEqual(["beta"]);
  });

  it("combines selection with a filter, and counts after filtering", () => {
    const result = listItems(
      items,
      request(qs({ names: "beta,Alpha,delta", filter: "provisioned<=100" })),
      opts,
    );
    expect(result.items.map((i) => i.name)).toEqual(["Alpha", "delta"]);
    expect(result.pagination_info.total_item_count).toBe(2);
  });
});

describe("listItems sort", () => {
  it.each([
    ["name", ["Alpha", "beta", "delta", "fs 2", "gamma"]],
    ["name-", ["gamma", "fs 2", "delta", "beta", "Alpha"]],
    ["provisioned", ["Alpha", "delta", "fs 2", "beta", "gamma"]],
    ["provisioned-", ["beta", "fs 2", "Alpha", "delta", "gamma"]],
    ["provisioned,name-", ["delta", "Alpha", "fs 2", "beta", "gamma"]],
    ["provisioned-,name-", ["beta", "fs 2", "delta", "Alpha", "gamma"]],
    ["space.virtual", ["Alpha", "gamma", "beta", "fs 2", "delta"]],
    ["space.virtual-", ["fs 2", "beta", "gamma", "Alpha", "delta"]],
    ["label", ["Alpha", "gamma", "beta", "delta", "fs 2"]],
    ["no_such_field", ["beta", "Alpha", "gamma", "delta", "fs 2"]],
    ["no_such_field-", ["beta", "Alpha", "gamma", "delta", "fs 2"]],
  ])(
    "sort=%s orders %j (numbers numerically, strings case-insensitively, missing last, stable)",
    (sort, expected) => {
      expect(names(qs({ sort }))).toEqual(expected);
    },
  );

  it("sorts numbers numerically, not as text", () => {
    const nums = [{ n: 10 }, { n: 9 }, { n: 100 }, { n: -1 }];
    expect(listItems(nums, request("sort=n"), opts).items.map((i) => i.n)).toEqual([-1, 9, 10, 100]);
  });

  it.each([
    [
      "-name",
      "Invalid sort key \"-name\": expected a field name, optionally followed by '-'. For descending order append the minus: 'name-'.",
    ],
    ["name;drop", "Invalid sort key \"name;drop\": expected a field name, optionally followed by '-'."],
    ["name--", "Invalid sort key \"name--\": expected a field name, optionally followed by '-'."],
  ])("sort=%s is a 400", (sort, message) => {
    const err = httpError(() => listItems(items, request(qs({ sort })), opts));
    expect([err.status, err.message, err.context]).toEqual([400, message, "sort"]);
  });
});
