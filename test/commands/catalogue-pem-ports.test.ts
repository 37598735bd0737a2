/**
 * Option values the catalogue reshapes before they are sent: PEM text pasted on one line (a slash command has
 * no newlines) goes back into its lines, and a list of references (a link aggregation group's ports) is typed
 * as names separated by commas. Pipeline and simulator over HTTPS (core harness).
 */
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { normalisePem } from "../../commands/catalogue/generic/pem.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const oneLine = (pem: string) => pem.trim().replaceAll("\n", " ");
const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const KEY = publicKey.export({ type: "spki", format: "pem" }).toString();

describe("PEM text typed on one line", () => {
  test("is put back into its lines; several blocks stay apart; other text is left as typed", () => {
    expect(normalisePem(oneLine(KEY))).toBe(KEY);
    expect(normalisePem(KEY)).toBe(KEY);
    expect(normalisePem(`${oneLine(KEY)}   ${oneLine(KEY)}`)).toBe(`${KEY}${KEY}`);
    expect(normalisePem("ssh-ed25519 AAAAC3Nza alice@laptop")).toBe("ssh-ed25519 AAAAC3Nza alice@laptop");
    // Not a whole block (no END line), or text around it: the array's refusal says what it expected.
    const cut = "-----BEGIN PUBLIC KEY----- MIIBIjAN";
    expect(normalisePem(cut)).toBe(cut);
    expect(normalisePem(`key: ${oneLine(KEY)}`)).toBe(`key: ${oneLine(KEY)}`);
  });

  test("api-client create sends a key the array can read", async () => {
    const done = await h.run(
      "alice",
      `api-client create ci --issuer ci --max-role readonly --public-key '${oneLine(KEY)}'`,
    );
    expect(textOf(done)).toContain("Created api-client ci on lab-1.");
    const stored = h.sims.get("lab-1")?.state.generic.get("/api-clients")?.items.get("ci");
    expect(stored?.["public_key"]).toBe(KEY);
    expect(createPublicKey(String(stored?.["public_key"])).asymmetricKeyType).toBe("rsa");
  });
});

describe("lag create --ports", () => {
  test("names the ports the group is built from", async () => {
    const done = await h.run("alice", "lag create backup-lag --ports CH1.FM1.ETH3,CH1.FM2.ETH3");
    expect(textOf(done)).toContain("Created lag backup-lag on lab-1.");
    const lag = h.sims.get("lab-1")?.state.network.lags.get("backup-lag");
    expect(lag?.ports.map((p) => p.name)).toEqual(["CH1.FM1.ETH3", "CH1.FM2.ETH3"]);
  });

  test("an empty list is refused before anything is sent", async () => {
    h.sims.get("lab-1")?.control.resetStats();
    const refused = textOf(await h.run("alice", "lag create empty-lag --ports ,"));
    expect(refused).toContain("name at least one");
    expect(
      h.sims.get("lab-1")?.control.stats().requests["POST /api/1.12/link-aggregation-groups"],
    ).toBeUndefined();
  });
});
