/** The `audit_export` section: strict, at least one target, TLS settings only with TLS. */
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.js";

const arrays = [{ name: "lab-1", address: "https://127.0.0.1:1", api_token_env: "T" }];
const parse = (audit_export: unknown) => configSchema.safeParse({ arrays, audit_export });
const messages = (audit_export: unknown) => {
  const r = parse(audit_export);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("audit_export", () => {
  it("takes a file, a syslog target or both, with defaults filled in", () => {
    const r = parse({
      file: "/var/log/audit.jsonl",
      syslog: { host: "siem.example", port: 6514, tls: true },
    });
    expect(r.success && r.data.audit_export).toEqual({
      file: "/var/log/audit.jsonl",
      syslog: { host: "siem.example", port: 6514, tls: true, app_name: "array-chatops" },
      queue: 10_000,
    });
    expect(parse(undefined).success && parse(undefined).data?.audit_export).toBeUndefined();
  });

  it("refuses an empty section, unknown keys, a CA without TLS and a bad APP-NAME", () => {
    expect(messages({})).toEqual(["audit_export: give a file, a syslog target or both"]);
    expect(messages({ file: "a", format: "csv" }).join()).toMatch(/format/);
    expect(messages({ syslog: { host: "h", port: 514, ca_file: "ca.pem" } })).toEqual([
      "audit_export.syslog.ca_file: ca_file needs tls: true",
    ]);
    expect(messages({ syslog: { host: "h", port: 514, app_name: "array chatops" } }).join()).toMatch(
      /app_name/,
    );
    expect(messages({ syslog: { host: "h", port: 0 } }).join()).toMatch(/port/);
  });
});
