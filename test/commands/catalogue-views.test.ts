/** Settings with a diff, and the read-only operations views: status, expiry, audit filters, fan-out, versions. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";

const DAY = 86_400_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2", versions: "1.0-1.10" }] });
});
afterAll(async () => h.close());
beforeEach(() => {
  for (const s of h.sims.values()) s.control.resetStats();
});

const item = (array: string, path: string) =>
  [...(h.sims.get(array)?.state.generic.get(path)?.items.values() ?? [])][0];
const table = (effects: Awaited<ReturnType<Harness["run"]>>) => {
  const t = messagesOf(effects)[0]?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${textOf(effects)}`);
  return t;
};

describe("set on a singleton", () => {
  test("shows before → after, asks to confirm as array_settings, and changes only the named field", async () => {
    const asked = await h.run("alice", "smtp set --relay-host smtp2.example.com --array lab-1");
    const text = textOf(asked);
    expect(text).toContain("Relay host: smtp.example.com → smtp2.example.com");
    expect(text).toContain(onWire(`PATCH /api/1.12/smtp {"relay_host":"smtp2.example.com"}`));
    expect(item("lab-1", "/smtp")?.["relay_host"]).toBe("smtp.example.com");
    await h.click("alice", asked, "Confirm");
    expect(item("lab-1", "/smtp")).toMatchObject({
      relay_host: "smtp2.example.com",
      sender_domain: "example.com",
    });
  });

  test("the dry run names the class and its policy", async () => {
    const text = textOf(await h.run("alice", "dns set --search corp.example.com --array lab-1 --dry-run"));
    expect(text).toContain("array settings action: you would be asked to confirm");
    // The bot reaches lab-1 by its address, not by a name: DNS cannot cut it off.
    expect(text).not.toContain("cut it off");
  });

  test("a change to the interface or subnet the bot reaches the array through is called out", async () => {
    // The subnet first: the array places an interface in the subnet whose prefix holds its address.
    await h.run("alice", "subnet create loop --prefix 127.0.0.0/8 --gateway 127.0.0.254 --array lab-1");
    await h.run(
      "alice",
      "interface create bot-vip --address 127.0.0.1 --services management --type vip --array lab-1",
    );
    expect(
      textOf(await h.run("alice", "interface update bot-vip --address 127.0.0.2 --array lab-1 --dry-run")),
    ).toContain(
      "The bot reaches lab-1 at 127.0.0.1, the address of bot-vip: this change can cut it off from the array.",
    );
    expect(textOf(await h.run("alice", "subnet update loop --mtu 9000 --array lab-1 --dry-run"))).toContain(
      "The bot reaches lab-1 at 127.0.0.1, inside loop (127.0.0.0/8)",
    );
    expect(
      textOf(await h.run("alice", "subnet update data --mtu 1500 --array lab-1 --dry-run")),
    ).not.toContain("cut it off");
    expect(textOf(await h.run("alice", "interface delete data1 --array lab-1 --dry-run"))).not.toContain(
      "cut it off",
    );
  });

  test("setting what is already there changes nothing and says so", async () => {
    const text = textOf(await h.run("alice", "smtp set --sender-domain example.com --array lab-1"));
    expect(text).toContain("Nothing to change: smtp already has those values.");
    expect(
      Object.keys(h.sims.get("lab-1")?.control.stats().requests ?? {}).filter((k) => k.startsWith("PATCH")),
    ).toEqual([]);
  });

  test("a verb or a field newer than the array is refused before anything is sent", async () => {
    expect(textOf(await h.run("alice", "eula show --array lab-2"))).toContain(
      "eula show` needs REST 1.12, lab-2 runs 1.10. Nothing was sent.",
    );
    expect(
      textOf(await h.run("alice", "admin update pureuser --public-key 'ssh-ed25519 AAAA' --array lab-2")),
    ).toContain("--public-key needs REST 1.11, lab-2 runs 1.10. Nothing was sent.");
    const versioned = Object.keys(h.sims.get("lab-2")?.control.stats().requests ?? {}).filter((k) =>
      /\/api\/\d/.test(k),
    );
    expect(versioned).toEqual([]);
  });
});

describe("operations views", () => {
  test("hardware marks what is not healthy and calls it out", async () => {
    const effects = await h.run("carol", "hardware list --array lab-1");
    const rows = table(effects).rows;
    expect(rows.some((r) => r["status"]?.startsWith("✗"))).toBe(true);
    expect(rows.some((r) => r["status"] === "✓ healthy")).toBe(true);
    expect(textOf(effects)).toMatch(/✗ \d+ items? not healthy: /);
  });

  test("certificates warn when they expire within 30 days", async () => {
    const cert = item("lab-1", "/certificates") as Record<string, unknown>;
    cert["valid_to"] = String(h.clock.now + 10 * DAY);
    const text = textOf(await h.run("carol", "certificate list --array lab-1"));
    expect(text).toContain("⚠ 1 certificate expired or expiring within 30 days: management");
    expect(text).toMatch(/⚠ in 10d/);
    cert["valid_to"] = String(h.clock.now + 65 * DAY);
    const later = textOf(await h.run("carol", "certificate list --array lab-1"));
    expect(later).not.toContain("within 30 days");
    expect(later).toContain("1 certificate expiring within 90 days: management");
  });

  test("audits filter by user, command and time with a quoted filter", async () => {
    const effects = await h.run("carol", "audit list --user pureuser --since 7d --array lab-1");
    const recent = h.sims.get("lab-1")?.control.stats().recent ?? [];
    const query = decodeURIComponent(recent.find((r) => r.path.endsWith("/audits"))?.query ?? "");
    expect(query).toContain("user='pureuser'");
    expect(query).toMatch(/time>=\d+/);
    for (const r of table(effects).rows) expect(r["user"]).toBe("pureuser");
    // Quotes in the value stay inside the quoted literal: nothing matches instead of everything.
    const hostile = textOf(await h.run("carol", `audit list --user "x' or user='pureuser" --array lab-1`));
    expect(hostile).toContain("No audit objects");
  });

  test("fan-out: one table with an Array column; an array too old gets its own line", async () => {
    const effects = await h.run("carol", "eula show --array all");
    expect(textOf(effects)).toMatch(/array lab-2 failed: .*eula show.* needs REST 1\.12, lab-2 runs 1\.10/);
    const blades = table(await h.run("carol", "blade list --array all"));
    expect(new Set(blades.rows.map((r) => r["_array"]))).toEqual(new Set(["lab-1", "lab-2"]));
  });

  test("a long list shows the first 50 rows and attaches the whole list as CSV", async () => {
    const m = messagesOf(await h.run("carol", "snapshot policy list --array lab-1"))[0];
    const t = m?.blocks.find((b) => b.type === "table");
    expect(t?.type === "table" && t.rows.length).toBe(50);
    const csv = String(m?.attachments?.find((a) => a.contentType === "text/csv")?.content ?? "");
    expect(csv.trim().split("\r\n").length).toBeGreaterThan(51);
  });

  test("downloads come as a file beside the table", async () => {
    const m = messagesOf(await h.run("carol", "snmp agent mib --array lab-1"))[0];
    const file = m?.attachments?.find((a) => a.filename === "mib.json");
    expect(JSON.parse(String(file?.content))[0].mib).toContain("PURESTORAGE-MIB DEFINITIONS");
  });

  test("a single-object change refuses several arrays", async () => {
    expect(textOf(await h.run("alice", "smtp set --relay-host a.example.com --array all"))).toContain(
      "runs on one array at a time",
    );
  });

  test("roles, admins, watchers, time zones, banner and EULA read as tables or fields", async () => {
    for (const [line, expected] of [
      ["role list", "array_admin"],
      ["admin list", "pureuser"],
      ["watcher list", "@example.com"],
      ["timezone list --name 'Europe*'", "Europe/Berlin"],
      ["banner show", "Banner"],
      ["eula show", "Storage Admin"],
    ] as const) {
      expect(textOf(await h.run("carol", `${line} --array lab-1`)), line).toContain(expected);
    }
  });
});

describe("prefix arithmetic", () => {
  test.each([
    ["10.21.100.10", "10.21.100.0/24", true],
    ["10.21.101.10", "10.21.100.0/24", false],
    ["127.0.0.1", "127.0.0.0/8", true],
    ["10.0.0.1", "0.0.0.0/0", true],
    ["fb.example.com", "10.0.0.0/8", false],
    ["10.0.0.1", "10.0.0.0/33", false],
  ])("%s in %s: %s", async (host, prefix, inside) => {
    const { inPrefix } = await import("../../commands/catalogue/generic/reach.js");
    expect(inPrefix(host, prefix)).toBe(inside);
  });
});
