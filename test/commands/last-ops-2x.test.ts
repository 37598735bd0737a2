/**
 * The last 2.28 operations help reached (issue 42j), on a REST 2.x array through the real client and the
 * simulator over HTTPS: a realm's default object store servers (a list of wrapped references typed as names),
 * a role's trust policy uploaded as an IAM document, a keytab file uploaded through the private dialog, a fleet
 * member removed, a workload preset renamed, a path put under a legal hold and released (query options). A viewer changes nothing; a dry run shows the exact request; the real run passes its gate and
 * changes the array.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Json } from "../../src/simulator/models/body.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { type ChangeCase, testChanges } from "./change-cases.js";
import { KEYTAB_BASE64, runThroughGates } from "./demo-examples.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness({
    arrays: [{ name: "fb-two", versions: "2.0-2.28" }],
    // As the console demo's fb-edge-01: never configured, joined to fb-two's fleet-prod with a fleet key.
    fleetMembers: [{ name: "fb-edge-01", scenario: "empty", versions: "2.0-2.28", joins: "fb-two" }],
  });
});
afterEach(async () => h.close());

const items = (path: string) => [...(h.sims.get("fb-two")?.state.generic.get(path)?.items.values() ?? [])];
const defaults = () =>
  items("/realms/defaults").map((d) => [d["name"], (d["servers"] as Json[]).map((s) => s["name"])]);

const TRUST = "/object-store-roles/object-store-trust-policies";
const DOCUMENT = JSON.stringify({
  Version: "2012-10-17",
  Statement: [
    {
      Effect: "Allow",
      Principal: { Federated: "oidc-demo" },
      Action: "sts:AssumeRoleWithWebIdentity",
      Condition: { StringEquals: { aud: ["builds", "ci"] } },
    },
  ],
});
const trustRules = () =>
  items(`${TRUST}/rules`)
    .filter((r) => (r["policy"] as Json | undefined)?.["name"] === "object-store-trust-policies-demo")
    .map((r) => [r["name"], r["actions"], r["principals"], r["conditions"]]);

const keytabs = () =>
  items("/keytabs")
    .filter((k) => k["prefix"] === "nfs-upload")
    .map((k) => [k["name"], k["principal"], k["encryption_type"], k["kvno"]]);

const held = () => items("/legal-holds/held-entities").map((e) => [e["name"], e["recursive"]]);

const CASES: ChangeCase[] = [
  {
    line: "legal-hold held-entity create hold-audit-2026 finance --paths /ledgers/2026 --recursive --array fb-two",
    request:
      "POST /api/2.28/legal-holds/held-entities?names=hold-audit-2026&file_system_names=finance&paths=%2Fledgers%2F2026&recursive=true",
    before: held,
    after: [
      ["hold-audit-2026|finance|/ledgers/2025", true],
      ["hold-audit-2026|finance|/ledgers/2026", true],
    ],
  },
  {
    line: "legal-hold held-entity update hold-audit-2026 finance --paths /ledgers/2025 --released --array fb-two",
    request:
      "PATCH /api/2.28/legal-holds/held-entities?names=hold-audit-2026&file_system_names=finance&paths=%2Fledgers%2F2025&released=true",
    before: held,
    after: [],
  },
  {
    line: "preset workload update workload-demo --new-name workload-gold --array fb-two",
    request: 'PATCH /api/2.28/presets/workload?names=workload-demo {"name":"workload-gold"}',
    before: () => items("/presets/workload").map((p) => p["name"]),
    after: ["workload-old", "workload-gold"],
  },
  {
    line: "keytab upload nfs-upload --array fb-two",
    request: 'POST /api/2.28/keytabs/upload?name_prefixes=nfs-upload {"keytab_file":"[redacted]"}',
    before: keytabs,
    after: [
      ["nfs-upload.1", "nfs/fb-lab-01.corp.example.com@CORP.EXAMPLE.COM", "aes256-cts-hmac-sha1-96", 3],
      ["nfs-upload.2", "nfs/fb-lab-01.corp.example.com@CORP.EXAMPLE.COM", "aes128-cts-hmac-sha1-96", 3],
    ],
  },
  {
    line: "fleet member remove fb-edge-01 --array fb-two",
    request: "DELETE /api/2.28/fleets/members?member_names=fb-edge-01",
    before: () => items("/fleets/members").map((m) => m["name"]),
    after: ["fb-two"],
  },
  {
    line: `object-store-role object-store-trust-policy upload object-store-trust-policies-demo --document '${DOCUMENT}' --array fb-two`,
    request: `PATCH /api/2.28/object-store-roles/object-store-trust-policies/upload?names=object-store-trust-policies-demo ${DOCUMENT}`,
    before: trustRules,
    after: [
      [
        "object-store-trust-policies-demo.1",
        ["sts:AssumeRoleWithWebIdentity"],
        [{ name: "oidc-demo" }],
        [{ operator: "StringEquals", key: "aud", values: ["builds", "ci"] }],
      ],
    ],
  },
  {
    line: "realm default update finance-realm --servers servers-demo,servers-old --array fb-two",
    request:
      'PATCH /api/2.28/realms/defaults?realm_names=finance-realm {"object_store":[{"server":{"name":"servers-demo"}},{"server":{"name":"servers-old"}}]}',
    before: defaults,
    after: [["finance-realm", ["servers-demo", "servers-old"]]],
  },
];

describe("the last 2.28 operations on 2.x", () => {
  testChanges(CASES, () => h);

  test("a realm's defaults read back by name; an unknown server is refused before anything changes", async () => {
    await runThroughGates(h, "realm default update finance-realm --servers servers-demo --array fb-two");
    expect(textOf(await h.run("carol", "realm default show finance-realm --array fb-two"))).toMatch(
      /servers-demo/,
    );
    const text = textOf(
      await runThroughGates(h, "realm default update finance-realm --servers nope --array fb-two"),
    );
    expect(text).toContain("Server 'nope' does not exist.");
    expect(defaults()).toEqual([["finance-realm", ["servers-demo"]]]);
  });

  test("a trust document that is not JSON, or not a trust policy, is refused before any card: nothing is sent", async () => {
    const line = (doc: string) =>
      `object-store-role object-store-trust-policy upload object-store-trust-policies-demo --document '${doc}' --array fb-two`;
    for (const sim of h.sims.values()) sim.control.resetStats();
    expect(textOf(await h.run("alice", line("{Statement")))).toContain("--document: not JSON");
    const deny = DOCUMENT.replace('"Allow"', '"Deny"');
    expect(textOf(await h.run("alice", line(deny)))).toContain(
      "a trust policy statement allows (Effect: Allow)",
    );
    const sent = [...h.sims.values()]
      .flatMap((s) => s.control.stats().recent)
      .filter((r) => r.method !== "GET");
    expect(sent.filter((r) => r.path.includes("upload"))).toEqual([]);
    expect(trustRules()).toEqual([]);
  });

  /** Runs the upload through its gate, typing `typed` in the private dialog the click opens. */
  async function upload(typed: string): Promise<string> {
    const asked = await h.run("alice", "keytab upload nfs-upload --array fb-two");
    const opened = await h.click("alice", asked, "Enter secret…");
    const dialog = opened.find((e) => e.kind === "secret");
    if (dialog?.kind !== "secret") throw new Error(`no private dialog: ${textOf(opened)}`);
    const done = await h.pipeline.handleClick({
      actionId: dialog.actionId,
      value: dialog.pendingId,
      actor: { kind: "console" as const, userId: "alice", channelId: "C1" },
      secrets: { keytabFile: typed },
    });
    return [textOf(asked), textOf(opened), textOf(done)].join("\n");
  }

  test("the keytab file reaches the array as multipart form-data and nowhere else: not the card, audit or log", async () => {
    const said = await upload(KEYTAB_BASE64);
    expect(keytabs()).toHaveLength(2);
    const sent = h.sims
      .get("fb-two")
      ?.control.stats()
      .recent.find((r) => r.path.endsWith("/keytabs/upload"));
    expect(sent?.headers?.["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const traces = [said, JSON.stringify(h.audits), JSON.stringify(sent)];
    for (const t of traces) expect(t).not.toContain(KEYTAB_BASE64.slice(8, 40));
    expect(said).toContain("Keytab file: &lt;file, typed in a private dialog&gt;");
  });

  test("a keytab typed as something else than base64, or a file that is not a keytab, changes nothing", async () => {
    expect(await upload("not base64!")).toContain("is not base64");
    expect(await upload(Buffer.from("hello, not a keytab").toString("base64"))).toContain(
      "'keytab_file' is not a keytab file",
    );
    expect(keytabs()).toEqual([]);
  });
});
