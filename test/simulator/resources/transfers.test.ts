/** DELETE /file-system-snapshots/transfer: cancels transfers not completed, stored or made by a schedule. */
import { describe, expect, it } from "vitest";
import { call, expect400, list, sim } from "./helpers.js";

const PATH = "/file-system-snapshots/transfer";
const names = (state: Parameters<typeof list>[0]) => list(state, PATH).items.map((t) => t["name"] as string);

describe("snapshot transfers", () => {
  it("lists the demo's stored transfer and cancels it by snapshot and remote name", () => {
    const { state } = sim();
    const stored = list(state, PATH).items.find((t) => t["name"] === "home.before-upgrade");
    expect(stored).toMatchObject({ status: "in-progress", remote: { name: "fb-dr-01" } });
    expect400(
      state,
      "DELETE",
      PATH,
      { query: "names=home.before-upgrade&remote_names=fb-lab-02" },
      /does not exist/,
    );
    expect(names(state)).toContain("home.before-upgrade");
    expect(
      call(state, "DELETE", PATH, { query: "names=home.before-upgrade&remote_names=fb-dr-01" }).empty,
    ).toBe(true);
    expect(names(state)).not.toContain("home.before-upgrade");
  });

  it("cancels a scheduled transfer still running and refuses a completed one", () => {
    const { state } = sim();
    const all = list(state, PATH).items;
    const done = all.find((t) => t["status"] === "completed");
    const open = all.find((t) => t["status"] !== "completed" && t["id"] !== "transfer-home-before-upgrade");
    if (!done || !open) throw new Error("the demo has no completed and running scheduled transfers");
    expect400(state, "DELETE", PATH, { query: `names=${done["name"]}` }, /has completed/);
    expect(names(state)).toContain(done["name"]);
    call(state, "DELETE", PATH, { query: `names=${open["name"]}` });
    expect(names(state)).not.toContain(open["name"]);
  });

  it("needs names", () => {
    const { state } = sim();
    expect400(state, "DELETE", PATH, {}, /'names' is required/);
  });
});
