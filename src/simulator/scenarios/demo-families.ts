/**
 * The demo array's 2.x-only families (issue 42), seeded through the simulator's own handlers and rules (the
 * requests an admin would send, at REST 2.28), under the names the examples, the bot's features and the tests
 * share: NFS export policies `default` and `lab-clients` with exports `home` and `projects`; SMB share policy
 * `smb-default`, client policy `smb-clients` and export `media`; QoS policies `qos-gold` (no limits) and
 * `qos-bronze` (3 MB/s, 5,000 ops/s) on `scratch`, whose workload presses against it (diagnose names it); `qos-archive` (no limits) on the bucket `logs-archive`; WORM data policy
 * `worm-7y` on `finance`; legal hold `hold-audit-2026` on `finance:/ledgers/2025`; maintenance window
 * `fw-upgrade` two days ahead for four hours; realm `finance-realm`; fleet `fleet-prod`; node group `ng-a` holding node `nodes-demo`, and `ng-archive` where `db-dumps` is placed; one
 * completed support-diagnostics run; and unused ones for the delete examples: `retired-clients`, `smb-retired`,
 * `smb-clients-retired`, `worm-trial`, `hold-2024-closed`, the destroyed `realm-retired`, a local admin
 * `contractor`, a DNS configuration `dns-data` (seen from REST 2.16) and the access policy `analytics/etl-read`. Sessions are not seeded: they come from real logins.
 *
 * Ids come from an id source of their own (as demo-admin.ts explains): drawing from the state's would shift the
 * ids and figures that tests and golden files pin. Requests are not audited: the array's audit log starts empty.
 */

import { createIdSource, createRng } from "../models/random.js";
import { parseQuery } from "../query/index.js";
import { createAdmins } from "../resources/admins-2x.js";
import type { Handler } from "../resources/common.js";
import { EXPORT_ROUTES, ROUTES_BY_FAMILY } from "../resources/export-policies.js";
import { FLEET_FAMILY_ROUTES, RUN_MS } from "../resources/fleet-families.js";
import { genericCreate } from "../resources/generic.js";
import { HOLD_ROUTES } from "../resources/legal-holds.js";
import { WINDOW_ROUTES } from "../resources/maintenance-windows.js";
import { NODE_GROUP_ROUTES, placeInNodeGroup } from "../resources/node-groups.js";
import { createAccessPolicies } from "../resources/object-store-access-policy-rules.js";
import { QOS_ROUTES } from "../resources/qos-policies.js";
import { applyWormPolicy, WORM_ROUTES } from "../resources/worm-data-policies.js";
import type { SimState } from "../state.js";
import { DAY, HOUR } from "./units.js";

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  ...ROUTES_BY_FAMILY,
  ...EXPORT_ROUTES,
  ...QOS_ROUTES,
  ...WORM_ROUTES,
  ...HOLD_ROUTES,
  ...WINDOW_ROUTES,
  ...FLEET_FAMILY_ROUTES,
  ...NODE_GROUP_ROUTES,
  "/admins": { POST: createAdmins },
  "/object-store-access-policies": { POST: createAccessPolicies },
};

const YEAR = 365 * DAY;

type Call = (method: string, path: string, query: Record<string, string>, body?: unknown) => void;

/** A request to the simulator's handler for `method path`, as the router would pass it in the handlers' terms. */
function caller(state: SimState): Call {
  return (method, path, query, body) => {
    const handler = ROUTES[path]?.[method] ?? (method === "POST" ? genericCreate : undefined);
    if (!handler) throw new Error(`demo-families: no handler for ${method} ${path}`);
    const search = new URLSearchParams(query).toString();
    handler(
      { method: method as "GET", path, version: "2.28", query: parseQuery(search), body, user: "pureuser" },
      state,
    );
  };
}

export function seedDemoFamilies(state: SimState): void {
  const now = state.clock();
  const seeding: SimState = { ...state, newId: createIdSource(createRng(state.seed ^ 0x42b)) };
  const at = (t: number): Call => caller({ ...seeding, clock: () => t });
  const call = at(now);

  call(
    "POST",
    "/nfs-export-policies",
    { names: "default" },
    {
      rules: [{ client: "*", permission: "ro", access: "root-squash" }],
    },
  );
  call(
    "POST",
    "/nfs-export-policies",
    { names: "lab-clients" },
    {
      rules: [
        { client: "10.20.0.0/16", permission: "rw", access: "no-squash" },
        { client: "*.build.example.com", permission: "ro", access: "root-squash" },
      ],
    },
  );
  call(
    "POST",
    "/file-system-exports",
    { member_names: "home", policy_names: "default" },
    { export_name: "home" },
  );
  call(
    "POST",
    "/file-system-exports",
    { member_names: "projects", policy_names: "lab-clients" },
    {
      export_name: "projects",
    },
  );

  call("POST", "/smb-share-policies", { names: "smb-default" }, {});
  call(
    "POST",
    "/smb-share-policies/rules",
    { policy_names: "smb-default" },
    {
      principal: "Everyone",
      full_control: "allow",
    },
  );
  call("POST", "/smb-client-policies", { names: "smb-clients" }, {});
  call("POST", "/smb-client-policies/rules", { policy_names: "smb-clients" }, { client: "*" });
  call(
    "POST",
    "/file-system-exports",
    { member_names: "media", policy_names: "smb-clients" },
    {
      export_name: "media",
      share_policy: { name: "smb-default" },
    },
  );

  call(
    "POST",
    "/qos-policies",
    { names: "qos-gold" },
    { max_total_bytes_per_sec: 0, max_total_ops_per_sec: 0 },
  );
  call(
    "POST",
    "/qos-policies",
    { names: "qos-bronze" },
    {
      max_total_bytes_per_sec: 3_000_000,
      max_total_ops_per_sec: 5000,
    },
  );
  call("POST", "/qos-policies/members", {
    policy_names: "qos-bronze",
    member_names: "scratch",
    member_types: "file-systems",
  });
  // A bucket's policy (2.19+): no limits, so the archive's reported performance is its own.
  call(
    "POST",
    "/qos-policies",
    { names: "qos-archive" },
    { max_total_bytes_per_sec: 0, max_total_ops_per_sec: 0 },
  );
  call("POST", "/qos-policies/members", {
    policy_names: "qos-archive",
    member_names: "logs-archive",
    member_types: "buckets",
  });

  call(
    "POST",
    "/worm-data-policies",
    { names: "worm-7y" },
    {
      mode: "compliance",
      retention_lock: "locked",
      min_retention: 7 * YEAR,
      default_retention: 7 * YEAR,
      max_retention: 10 * YEAR,
    },
  );
  const finance = state.fileSystems.get("finance");
  // On arrays a WORM data policy joins a file system as it is created (`policy_names`); the demo's finance is
  // older than the policy, so the seed applies it through the same rule.
  if (finance) applyWormPolicy(seeding, "worm-7y", finance);

  call(
    "POST",
    "/legal-holds",
    { names: "hold-audit-2026" },
    { description: "External audit of the 2025 ledgers" },
  );
  call("POST", "/legal-holds/held-entities", {
    names: "hold-audit-2026",
    file_system_names: "finance",
    paths: "/ledgers/2025",
    recursive: "true",
  });

  // Planned: opened when the work starts, two days from now, for four hours.
  at(now + 2 * DAY)("POST", "/maintenance-windows", { names: "fw-upgrade" }, { timeout: 4 * HOUR });

  call("POST", "/realms", { names: "finance-realm" });
  call("POST", "/fleets", { names: "fleet-prod" });
  call("POST", "/node-groups", { names: "ng-a" }, {});
  // The node demo-2x.ts seeds on /nodes (seeded before this): ng-a holds it, so a node can leave a group.
  call("POST", "/node-groups/nodes", { node_group_names: "ng-a", node_names: "nodes-demo" });
  // db-dumps is placed in a group of its own (what its `node_group` says; the wire sets it only at creation),
  // so the group's uses have one to show and ng-a stays free to delete.
  call("POST", "/node-groups", { names: "ng-archive" }, {});
  if (state.fileSystems.has("db-dumps")) placeInNodeGroup(state, "db-dumps", "ng-archive");
  // Retired and unused, so the delete examples have something the array lets go: policies nothing exports
  // through, an unlocked WORM policy without members, a hold that holds nothing, a destroyed realm.
  call("POST", "/nfs-export-policies", { names: "retired-clients" }, {});
  call("POST", "/smb-share-policies", { names: "smb-retired" }, {});
  call("POST", "/smb-client-policies", { names: "smb-clients-retired" }, {});
  call("POST", "/worm-data-policies", { names: "worm-trial" }, { retention_lock: "unlocked" });
  call(
    "POST",
    "/legal-holds",
    { names: "hold-2024-closed" },
    { description: "Closed: 2024 ledgers released" },
  );
  call("POST", "/realms", { names: "realm-retired" });
  call("PATCH", "/realms", { names: "realm-retired" }, { destroyed: true });
  // A second DNS configuration, for the data services (REST 2.16+ keeps several), for `dns delete`'s example.
  call(
    "POST",
    "/dns",
    { names: "dns-data" },
    { domain: "data.example.com", nameservers: ["10.21.4.53"], services: ["data"] },
  );
  // An account's own access policy (REST 2.2+), attached to no one, with one rule: the object-policy and rule
  // examples change and delete it.
  call(
    "POST",
    "/object-store-access-policies",
    { names: "analytics/etl-read" },
    {
      description: "ETL reads",
      rules: [{ name: "read", actions: ["s3:GetObject"], resources: ["etl/*"] }],
    },
  );
  // A local admin for `admin delete`'s example (REST 2.15+ removes admins): a contractor's account, read-only.
  call(
    "POST",
    "/admins",
    { names: "contractor" },
    { password: "Contract0r-Pw!", role: { name: "readonly" } },
  );

  // Started an hour before it finished, so the demo has a completed run to read.
  at(now - RUN_MS - HOUR)("POST", "/support-diagnostics", {});
}
