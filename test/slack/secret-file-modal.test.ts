/**
 * A secret file (a keytab) in Slack's private dialog: the catalogue's upload verb asks for it as a multi-line
 * box whose hint says to paste the file as base64, the way `base64 -w0` prints it.
 */
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { secretView } from "../../src/slack/secret-modal.js";

describe("a secret file in the private dialog", () => {
  test("keytab upload asks for the keytab file as base64 in a multi-line box", () => {
    const command = createRegistry(RESOURCES).find("keytab", "upload")?.command;
    const fields = [...(command?.secrets?.({}) ?? [])];
    expect(fields).toEqual([{ key: "keytabFile", label: "Keytab file", multiline: true, file: true }]);
    const view = secretView({ kind: "secret", pendingId: "p1", title: "t", fields, actionId: "a1" }, "C1");
    const input = view.blocks.find((b) => b["type"] === "input") as Record<string, unknown> | undefined;
    expect(input?.["hint"]).toEqual({
      type: "plain_text",
      text: "The file as base64: paste what `base64 -w0 <file>` prints.",
    });
    expect((input?.["element"] as Record<string, unknown> | undefined)?.["multiline"]).toBe(true);
  });
});
