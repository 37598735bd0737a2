/**
 * Issue 25's simulator rules the SDK flows do not reach: peers found by address (expired keys, unknown addresses,
 * CA groups that do not exist), a directory admin's password, snapshot restores as a file system's source.
 */
import { afterEach, describe, expect, it } from "vitest";
import { registerPeer } from "../../../src/simulator/peers.js";
import { call, expect400, HOUR, items, list, sim } from "./helpers.js";

const forget: (() => void)[] = [];
afterEach(() => {
  for (const f of forget.splice(0)) f();
});

/** A second simulated array answering on 127.0.0.1:<port>, with a fresh connection key. */
function peer(port: number, name: string) {
  const other = sim("empty", 11);
  other.state.array.name = name;
  forget.push(registerPeer("127.0.0.1", port, other.state));
  const [key] = items(call(other.state, "POST", "/array-connections/connection-key"));
  return { ...other, key: String(key?.["connection_key"]) };
}

describe("array connections between simulated arrays", () => {
  it("learn the peer's name from its address, and only with a key the peer issued and still holds", () => {
    const { state } = sim("demo");
    const p = peer(40001, "fb-peer-01");
    const post = (key: string, extra: object = {}) =>
      call(state, "POST", "/array-connections", {
        body: { management_address: "127.0.0.1:40001", connection_key: key, ...extra },
      });
    expect400(
      state,
      "POST",
      "/array-connections",
      {
        body: {
          management_address: "127.0.0.1:40001",
          connection_key: p.key,
          remote: { name: "someone-else" },
        },
      },
      /is 'fb-peer-01', not 'someone-else'/,
    );
    p.clock.advance(2 * HOUR);
    expect400(
      state,
      "POST",
      "/array-connections",
      {
        body: { management_address: "127.0.0.1:40001", connection_key: p.key },
      },
      /not one the array at 127.0.0.1:40001 issued \(or it expired\)/,
    );
    const [fresh] = items(call(p.state, "POST", "/array-connections/connection-key"));
    const [made] = items(post(String(fresh?.["connection_key"])));
    expect(made).toMatchObject({
      remote: { name: "fb-peer-01", id: p.state.array.id },
      ca_certificate_group: null,
    });
  });

  it("to an address no simulator answers keep the name the request gives", () => {
    const { state } = sim("demo");
    const [made] = items(
      call(state, "POST", "/array-connections", {
        body: {
          management_address: "10.99.0.20",
          connection_key: "k",
          remote: { name: "fb-far-01" },
          encrypted: true,
        },
      }),
    );
    expect(made).toMatchObject({
      remote: { name: "fb-far-01" },
      encrypted: true,
      ca_certificate_group: { name: "_default_replication_certs", resource_type: "certificate-groups" },
    });
  });

  it("refuse a CA certificate group that does not exist, and drop the group when encryption goes off", () => {
    const { state } = sim("demo");
    expect400(
      state,
      "POST",
      "/array-connections",
      {
        body: {
          management_address: "10.99.0.21",
          connection_key: "k",
          encrypted: true,
          ca_certificate_group: { name: "nope" },
        },
      },
      /Certificate group 'nope' does not exist/,
    );
    const [on] = items(
      call(state, "PATCH", "/array-connections", {
        query: "remote_names=fb-archive-01",
        body: { encrypted: true },
      }),
    );
    expect(on?.["ca_certificate_group"]?.name).toBe("_default_replication_certs");
    const [plain] = items(
      call(state, "PATCH", "/array-connections", {
        query: "remote_names=fb-archive-01",
        body: { encrypted: false },
      }),
    );
    expect(plain?.["ca_certificate_group"]).toBeNull();
  });
});

describe("admins and file systems", () => {
  it("refuses to change a directory admin's password on the array", () => {
    const { state } = sim("demo");
    state.generic.get("/admins")?.items.set("ldap-ann", { name: "ldap-ann", id: "a-1", is_local: false });
    expect400(
      state,
      "PATCH",
      "/admins",
      {
        query: "names=ldap-ann",
        body: { password: "x", old_password: "pureuser" },
      },
      /directory user/,
    );
  });

  it("names the snapshot a file system was restored from as its source, on this array", () => {
    const { state } = sim("demo");
    call(state, "POST", "/file-systems", {
      body: { name: "restored", source: { name: "home.before-upgrade" } },
    });
    const [fs] = list(state, "/file-systems", "names=restored").items;
    expect(fs?.["source"]).toMatchObject({
      name: "home.before-upgrade",
      resource_type: "file-system-snapshots",
      is_local: true,
      location: { name: "fb-test", resource_type: "arrays" },
    });
  });
});
