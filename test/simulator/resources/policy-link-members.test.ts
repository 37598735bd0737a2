import { describe, expect, it } from "vitest";
import { call, expect400, list, sim } from "./helpers.js";

const linkOf = (state: ReturnType<typeof sim>["state"], fs: string) =>
  [...state.fileSystemReplicaLinks.values()].find((l) => l.localFileSystem === fs);

describe("/policies/file-system-replica-links", () => {
  it("lists the policies on each link as policy/member/link pairs, from either side", () => {
    const { state } = sim();
    const pairs = list(state, "/policies/file-system-replica-links", "policy_names=daily").items;
    expect(
      pairs.map((p) => `${p["policy"].name}:${p["link"].local_file_system.name}→${p["link"].remote.name}`),
    ).toEqual(["daily:projects→fb-dr-01", "daily:home→fb-dr-01"]);
    expect(pairs[0]?.["member"]).toMatchObject({
      name: "projects",
      resource_type: "file-system-replica-links",
    });
    expect(
      list(state, "/file-system-replica-links/policies", "local_file_system_names=home").items,
    ).toHaveLength(1);
  });

  it("attaches and detaches a policy on a link, and refuses doing either twice", () => {
    const { state } = sim();
    const query = "policy_names=hourly&local_file_system_names=ml-datasets&remote_names=fb-lab-02";
    call(state, "POST", "/policies/file-system-replica-links", { query });
    expect(linkOf(state, "ml-datasets")?.policies).toEqual(["hourly"]);
    expect400(state, "POST", "/policies/file-system-replica-links", { query }, /already attached/);
    call(state, "DELETE", "/policies/file-system-replica-links", { query });
    expect(linkOf(state, "ml-datasets")?.policies).toEqual([]);
    expect400(state, "DELETE", "/policies/file-system-replica-links", { query }, /is not attached/);
  });

  it("needs a policy and a link, and names what matches nothing", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/policies/file-system-replica-links",
      { query: "local_file_system_names=home" },
      /'policy_names' or 'policy_ids' is required/,
    );
    expect400(
      state,
      "POST",
      "/policies/file-system-replica-links",
      { query: "policy_names=daily" },
      /is required/,
    );
    expect400(
      state,
      "POST",
      "/policies/file-system-replica-links",
      { query: "policy_names=daily&local_file_system_names=media" },
      /No file system replica link matches local_file_system_names 'media'/,
    );
  });
});
