/**
 * Values are checked before a card is shown: IP addresses and CIDR prefixes, host names, e-mail addresses,
 * ports, VLAN and MTU ranges. One set of value kinds (src/core/words/arg-types.ts) serves every catalogue field.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const refused = async (line: string, ...says: string[]) => {
  const text = textOf(await h.run("alice", line));
  expect(text).toContain("Invalid arguments");
  expect(text).not.toContain("Confirm");
  for (const s of says) expect(text).toContain(s);
};
const carded = async (line: string) => {
  const text = textOf(await h.run("alice", `${line} --dry-run`));
  expect(text).not.toContain("Invalid arguments");
  return text;
};

describe("refused before any card", () => {
  test("a name server that is no IP address, with what is wrong with it", async () => {
    await refused(
      "dns set --nameservers 10.21.0.999",
      "`10.21.0.999` is not an IP address: 999 is not a number from 0 to 255",
    );
    await refused(
      "dns set --nameservers 10.21.0.53,ns1.example.com",
      "`ns1.example.com` is not an IP address",
    );
    expect(textOf(await h.run("alice", "dns show"))).toContain("10.21.0.53, 10.21.1.53");
  });

  test("CIDR prefixes, gateways, VLAN and MTU ranges", async () => {
    await refused("subnet create s9 --prefix 10.30.0.0/33", "has /33, not a prefix length from 0 to 32");
    await refused("subnet create s9 --prefix 10.30.0.0", "write address/bits");
    await refused(
      "subnet create s9 --prefix 10.30.0.0/24 --gateway 10.30.0.256",
      "`10.30.0.256` is not an IP address",
    );
    await refused("subnet create s9 --prefix 10.30.0.0/24 --vlan 5000", "a VLAN id from 0 (none) to 4094");
    await refused("subnet create s9 --prefix 10.30.0.0/24 --mtu 100", "an MTU from 1280 to 9216");
  });

  test("host names, ports and e-mail addresses", async () => {
    await refused("smtp set --relay-host 'smtp relay.example.com'", "is not a host name");
    await refused("smtp set --relay-host smtp.example.com:70000", "has port 70000, not from 1 to 65535");
    await refused("array set --ntp-servers time1.example.com,-bad-", "`-bad-` is not a host name");
    await refused("snmp manager update nms --host 10.21.0.300", "is not an IP address: 300");
    await refused("watcher create pager-at-example.com", "is not an e-mail address");
  });
});

describe("good values still reach the card", () => {
  test("IPv4 and IPv6 name servers, host:port relays, prefixes, e-mail watchers", async () => {
    await carded("dns set --nameservers 10.21.0.53,2001:db8::53");
    await carded("smtp set --relay-host smtp2.example.com:587");
    await carded("subnet create s9 --prefix 10.30.0.0/24 --gateway 10.30.0.1 --vlan 30 --mtu 9000");
    await carded("watcher create pager@example.com");
  });
});
