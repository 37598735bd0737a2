/**
 * Object names the simulator takes (issue 22 point 7): exactly those of src/rest-spec/names.ts, per kind, and
 * a refusal in the array's 400 shape for the rest: control characters, the separators the interface uses
 * (',' between list items, '.' in snapshot names, '/' in user and rule names), and more than 63 characters.
 */
import { describe, expect, it } from "vitest";
import { call, expect400, items, q, sim } from "./helpers.js";

const body = { provisioned: 1024 ** 3 };

describe("names the simulator takes", () => {
  it("file systems: any character but separators and control characters, hostile text included", () => {
    const { state } = sim();
    for (const name of ["fs 2", "<!channel>", "*pwn*", "`x`", "&<>", "ünï-cødé", "L".repeat(63)]) {
      const [fs] = items(call(state, "POST", "/file-systems", { body: { ...body, name } }));
      expect(fs?.["name"]).toBe(name);
    }
    for (const name of [
      "a\nb",
      "a\rb",
      "tab\tname",
      "esc\u001b[2J",
      "del\u007f",
      "a.b",
      "a/b",
      " lead",
      "L".repeat(64),
    ]) {
      expect400(state, "POST", "/file-systems", { body: { ...body, name } }, /name|characters/i);
      expect(state.fileSystems.has(name)).toBe(false);
    }
  });

  it("collections created by ?names=: control characters and over-long names refused", () => {
    const { state } = sim();
    const path = "/snmp-managers";
    const create = { host: "nms.example.com", version: "v2c", v2c: { community: "public" } };
    items(call(state, "POST", path, { query: q({ names: "nms <x> *y*" }), body: create }));
    for (const name of ["nms\n2", "esc\u001b[31m", "n".repeat(64)]) {
      expect400(state, "POST", path, { query: q({ names: name }), body: create }, /is not a valid name/);
    }
  });

  it("buckets, accounts and policies keep their stricter rules", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/object-store-accounts",
      { query: q({ names: "acct\n1" }) },
      /not a valid account name/,
    );
    expect400(
      state,
      "POST",
      "/policies",
      { query: q({ names: "p\u001b" }), body: {} },
      /not a valid policy name/,
    );
  });
});
