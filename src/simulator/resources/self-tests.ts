/** The `…/test` endpoints: the simulated services always pass their checks. */
import type { Handler } from "./common.js";
import { listing } from "./common.js";
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
