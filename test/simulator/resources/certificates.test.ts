import { generateKeyPairSync } from "node:crypto";
import { generate } from "selfsigned";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expect400, items, list, sim } from "./helpers.js";

let pem: { cert: string; key: string };
let otherKey: string;

beforeAll(async () => {
  const made = await generate(
    [
      { name: "commonName", value: "s3.example.com" },
      { name: "organizationName", value: "Example Corp" },
      { name: "countryName", value: "DE" },
    ],
    { keySize: 2048, keyType: "rsa", algorithm: "sha256", notBeforeDate: new Date(Date.UTC(2024, 0, 1)) },
  );
  pem = { cert: made.cert, key: made.private };
  otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    type: "pkcs8",
    format: "pem",
  }) as string;
});

describe("/certificates", () => {
  it("shows what the array reads from an imported PEM and never lists the private key", () => {
    const { state } = sim();
    const [made] = items(
      call(state, "POST", "/certificates", {
        query: "names=s3-cert",
        body: { certificate: pem.cert, private_key: pem.key, certificate_type: "array" },
      }),
    );
    expect(made).toMatchObject({
      name: "s3-cert",
      common_name: "s3.example.com",
      organization: "Example Corp",
      country: "DE",
      key_size: 2048,
      issued_to: "s3.example.com",
      issued_by: "s3.example.com",
      valid_from: String(Date.UTC(2024, 0, 1)),
      status: "imported",
      certificate_type: "array",
    });
    expect(Number(made?.["valid_to"])).toBeGreaterThan(Date.UTC(2024, 0, 1));
    const listed = list(state, "/certificates", "names=s3-cert").items[0];
    expect(listed).not.toHaveProperty("private_key");
    expect(listed).not.toHaveProperty("passphrase");
    expect(JSON.stringify([made, list(state, "/certificates"), list(state, "/audits")])).not.toContain(
      pem.key.split("\n")[1],
    );
  });

  it("types validity as each generation's model does, seeded and imported alike: 1.x str, 2.x int64", () => {
    for (const scenario of ["demo", "demo-dr"] as const) {
      const { state } = sim(scenario);
      call(state, "POST", "/certificates", {
        query: "names=s3-cert",
        body: { certificate: pem.cert, private_key: pem.key, certificate_type: "array" },
      });
      const all = (version: string) => list(state, "/certificates", "", version).items;
      expect(all("1.12").length).toBeGreaterThan(1);
      for (const c of all("1.12")) {
        expect(c["valid_from"], `${scenario} ${c["name"]}`).toMatch(/^\d+$/);
        expect(c["valid_to"], `${scenario} ${c["name"]}`).toMatch(/^\d+$/);
      }
      for (const c of all("2.0")) {
        expect(c["valid_from"], `${scenario} ${c["name"]}`).toBeTypeOf("number");
        expect(c["valid_to"], `${scenario} ${c["name"]}`).toBeTypeOf("number");
      }
    }
  });

  it("refuses a key of another certificate, text that is no certificate, and derived fields", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/certificates",
      { query: "names=bad", body: { certificate: pem.cert, private_key: otherKey } },
      /'private_key' does not belong to the certificate/,
    );
    expect400(
      state,
      "POST",
      "/certificates",
      { query: "names=bad", body: { certificate: "hello" } },
      /'certificate' is not a PEM certificate/,
    );
    expect400(
      state,
      "POST",
      "/certificates",
      { query: "names=bad", body: { certificate: pem.cert, common_name: "x" } },
      /'common_name' is read-only/,
    );
    // Nothing was added: the demo's own three (the array's, the LDAP CA and the DR array's CA) are all there is.
    expect(list(state, "/certificates").items.map((c) => c["name"])).toEqual([
      "management",
      "ldap-ca",
      "fb-dr-01-ca",
    ]);
  });

  it("adds certificates to groups and lists the pairs from either side", () => {
    const { state } = sim();
    call(state, "POST", "/certificates", { query: "names=ca1", body: { certificate: pem.cert } });
    call(state, "POST", "/certificate-groups", { query: "names=partners" });
    const [pair] = items(
      call(state, "POST", "/certificate-groups/certificates", {
        query: "certificate_group_names=partners&certificate_names=ca1",
      }),
    );
    expect(pair).toMatchObject({
      group: { name: "partners", resource_type: "certificate-groups" },
      member: { name: "ca1", resource_type: "certificates" },
    });
    for (const path of ["/certificate-groups/certificates", "/certificates/certificate-groups"]) {
      expect(list(state, path, "certificate_names=ca1").items).toEqual([pair]);
      expect(list(state, path, "certificate_group_names=partners").items).toEqual([pair]);
    }
    expect400(
      state,
      "POST",
      "/certificates/certificate-groups",
      { query: "certificate_group_names=partners&certificate_names=ca1" },
      /already in certificate group 'partners'/,
    );
    expect400(
      state,
      "POST",
      "/certificate-groups/certificates",
      { query: "certificate_names=ca1" },
      /'certificate_group_names' or 'certificate_group_ids' is required/,
    );
    call(state, "DELETE", "/certificates/certificate-groups", {
      query: "certificate_group_names=partners&certificate_names=ca1",
    });
    expect(list(state, "/certificate-groups/certificates", "certificate_group_names=partners").items).toEqual(
      [],
    );
    expect(list(state, "/certificate-groups", "names=partners").items[0]).toEqual({
      name: "partners",
      id: expect.any(String),
    });
  });
});
