/** The `…/test` endpoints: the simulated services always pass their checks. */
import { badRequest } from "../types.js";
import type { Handler } from "./common.js";
import { listing, ok } from "./common.js";
import { collection } from "./generic.js";

function result(name: string, component: string, testType: string, destination = "") {
  return {
    name,
    component_address: null,
    component_name: component,
    description: `${testType} test of ${component}`,
    destination,
    enabled: true,
    resource: null,
    result_details: "",
    success: true,
    test_type: testType,
  };
}

export const testSupport: Handler = (req, state) =>
  listing(
    [
      result(
        state.array.name,
        "phonehome",
        req.query.string("test_type") ?? "all",
        "phonehome.purestorage.com",
      ),
    ],
    req,
    {
      nameParams: [],
    },
  );

export const testSnmpManagers: Handler = (req, state) =>
  listing(
    [...collection(state, "/snmp-managers").items.values()].map((m) => ({
      id: m["id"],
      name: m["name"],
      sent: true,
      error: null,
    })),
    req,
  );

export const testSyslogServers: Handler = (req, state) =>
  listing(
    [...collection(state, "/syslog-servers").items.values()].map((s) => ({
      component_address: null,
      component_name: s["name"],
      description: "Sent a test message",
      destination: s["uri"] ?? "",
      details: "",
      success: true,
      test_type: "send-message",
    })),
    req,
    { nameParams: [] },
  );

export const testDirectoryServices: Handler = (req, state) =>
  listing(
    [...collection(state, "/directory-services").items.values()].map((d) =>
      result(
        String(d["name"]),
        String(d["name"]),
        "directory-service",
        ((d["uris"] as string[] | undefined) ?? [])[0] ?? "",
      ),
    ),
    req,
  );

export const testActiveDirectory: Handler = (req, state) =>
  listing(
    [...collection(state, "/active-directory").items.values()].map((d) =>
      result(String(d["name"]), String(d["computer_name"] ?? d["name"]), "active-directory"),
    ),
    req,
  );

/**
 * PATCH (2.27+) tests the named Active Directory accounts against a CA certificate or group before the array
 * trusts it: the account and the certificate or group must exist.
 */
export const checkActiveDirectory: Handler = (req, state) => {
  const accounts = collection(state, "/active-directory").items;
  const names = req.query.list("names")?.filter((s) => s !== "") ?? [...accounts.keys()];
  const body = (req.body ?? {}) as Record<string, { name?: string } | undefined>;
  for (const [field, path] of [
    ["ca_certificate", "/certificates"],
    ["ca_certificate_group", "/certificate-groups"],
  ] as const) {
    const ref = body[field]?.name;
    if (ref !== undefined && !collection(state, path).items.has(ref))
      throw badRequest(
        `${field === "ca_certificate" ? "Certificate" : "Certificate group"} '${ref}' does not exist.`,
        ref,
      );
  }
  const out = names.map((n) => {
    const d = accounts.get(n);
    if (!d) throw badRequest(`Active Directory account '${n}' does not exist.`, n);
    return result(n, String(d["computer_name"] ?? n), "active-directory");
  });
  return ok(out);
};
