/**
 * Removing every name server, the only NTP server or the SMTP relay is its own destructive class,
 * remove_last_server, which needs another admin's approval by default; the card says what stops working.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe("emptying a service's last server", () => {
  test("every name server: approval by another admin, and what stops working", async () => {
    const card = await h.run("alice", `dns set --nameservers ""`);
    const text = textOf(card);
    expect(text).toContain("This removes every name server (10.21.0.53, 10.21.1.53)");
    expect(text).toContain("the array resolves no host names");
    expect(text).toContain("Needs 1 approval from someone else with the admin role");
    expect(text).not.toContain("Confirm");
    // The other admin approves: the name servers are gone.
    await h.click("dave", card, "Approve");
    expect(textOf(await h.run("carol", "dns show"))).toMatch(/Nameservers:\s*–/);
  });

  test("the SMTP relay and the only NTP server", async () => {
    const smtp = textOf(await h.run("alice", `smtp set --relay-host ""`));
    expect(smtp).toContain("This removes the SMTP relay (smtp.example.com)");
    expect(smtp).toContain("alert watchers get no alert e-mails");
    expect(smtp).toContain("Needs 1 approval from someone else with the admin role");
    // Down to one NTP server is an ordinary settings change (confirmed); removing that one is not.
    const down = await h.run("alice", "array set --ntp-servers time1.example.com");
    expect(textOf(down)).toContain("Confirm");
    await h.click("alice", down, "Confirm");
    const ntp = textOf(await h.run("alice", `array set --ntp-servers ""`));
    expect(ntp).toContain("This removes the only NTP server (time1.example.com)");
    expect(ntp).toContain("the array's clock is kept by no server and drifts");
    expect(ntp).toContain("Needs 1 approval from someone else with the admin role");
  });

  test("changing the name servers to others stays an array_settings change", async () => {
    const text = textOf(await h.run("alice", "dns set --nameservers 10.21.0.54"));
    expect(text).toContain("Confirm");
    expect(text).not.toContain("remove_last_server");
  });
});
