/**
 * The named hooks a catalogue entry gives the generic change verbs (spec.ts): each through a noun that uses it,
 * on the simulator over HTTPS, asserting what reaches the array and what people read.
 */
import { describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { fileHarness } from "../core/file-harness.js";
import { messagesOf, textOf } from "../core/harness.js";
import { requestMark, writesSince } from "./sim-requests.js";

const h = fileHarness();

const buttonsOf = (effects: readonly Effect[]) =>
  messagesOf(effects).flatMap((m) =>
    m.blocks.flatMap((b) => (b.type === "actions" ? b.buttons.map((x) => x.label) : [])),
  );

describe("refuseExisting", () => {
  test("create refuses a name the array has, before anything is sent", async () => {
    const mark = requestMark(h.sim());
    const text = textOf(await h.run("bob", "object-account create analytics --array lab-1"));
    expect(text).toContain("Object store account analytics already exists on lab-1. Nothing was changed.");
    expect(writesSince(h.sim(), mark, "/object-store-accounts")).toEqual([]);
  });
});

describe("precheck", () => {
  test("its state voids a confirmation when the array changes in between", async () => {
    const asked = await h.run("bob", "object-user delete analytics/etl --array lab-1");
    const keys = [...h.sim().state.accessKeys.values()].filter((k) => k.user === "analytics/etl");
    expect(textOf(asked)).toContain(`with ${keys.length} access key`);
    // Another key for the user after the impact was shown: deleting the user would now take it too.
    h.sim().state.accessKeys.set("PSFBNEWKEYFORTHEHOOKTEST", {
      id: "k-hook",
      name: "PSFBNEWKEYFORTHEHOOKTEST",
      user: "analytics/etl",
      created: 0,
      enabled: true,
      secret: "never-shown-hook-secret",
    });
    const mark = requestMark(h.sim());
    expect(textOf(await h.click("bob", asked, "Confirm"))).toContain("changed since");
    expect(writesSince(h.sim(), mark, "/object-store-users")).toEqual([]);
    expect(h.sim().state.objectUsers.has("analytics/etl")).toBe(true);
  });

  test("it may refuse, naming what the change rests on, before anything is sent", async () => {
    const mark = requestMark(h.sim());
    const text = textOf(await h.run("alice", "remote-credentials delete fb-dr-01/repl-creds --array lab-1"));
    expect(text).toMatch(/Bucket replica links of .+ use fb-dr-01\/repl-creds/);
    expect(text).toContain("Nothing was changed.");
    expect(writesSince(h.sim(), mark, "/object-store-remote-credentials")).toEqual([]);
  });

  test("an add words its impact and warns about what it rests on (DNS)", async () => {
    const text = textOf(
      await h.run("alice", "virtual-host add s3.hooks.example.com --dry-run --array lab-1"),
    );
    expect(text).toContain("buckets answer as <bucket>.s3.hooks.example.com");
    expect(text).toContain("DNS must resolve *.s3.hooks.example.com");
  });
});

describe("valueWarnings", () => {
  test("each value of a field says its own warning", async () => {
    const enabled = textOf(await h.run("bob", "bucket update veeam-repo --versioning enabled --dry-run"));
    expect(enabled).toContain("Previous versions now count against the bucket's space");
    expect(enabled).not.toContain("no longer kept");
    const suspended = textOf(await h.run("bob", "bucket update veeam-repo --versioning suspended --dry-run"));
    expect(suspended).toContain("Overwritten and deleted objects are no longer kept as previous versions.");
  });
});

describe("classFrom", () => {
  const keys = () => [...h.sim().state.accessKeys.values()];

  test("disabling an enabled key waits at the gate as destroy; enabling a disabled one runs at once", async () => {
    const on = keys().find((k) => k.enabled);
    const off = keys().find((k) => !k.enabled);
    if (!on || !off) throw new Error("the demo has an enabled and a disabled access key");
    const disabling = await h.run("bob", `access-key update ${on.name} --no-enabled --array lab-1`);
    expect(buttonsOf(disabling)).toContain("Confirm");
    expect(h.sim().state.accessKeys.get(on.name)?.enabled).toBe(true);
    await h.click("bob", disabling, "Confirm");
    expect(h.sim().state.accessKeys.get(on.name)?.enabled).toBe(false);

    const enabling = await h.run("bob", `access-key update ${off.name} --enabled --array lab-1`);
    expect(buttonsOf(enabling)).toEqual([]);
    expect(h.sim().state.accessKeys.get(off.name)?.enabled).toBe(true);
  });
});

describe("choices", () => {
  test("a text field takes only the values the noun lists, refused before anything is sent", async () => {
    const mark = requestMark(h.sim());
    const text = textOf(await h.run("bob", "bucket update veeam-repo --versioning none --array lab-1"));
    expect(text).toContain("enabled");
    expect(text).toContain("suspended");
    expect(text).not.toContain("Nothing was changed");
    expect(writesSince(h.sim(), mark, "/buckets")).toEqual([]);
  });
});

describe("verbs, answers and name rules", () => {
  test("a renamed verb keeps the generic word; a new name is checked against the noun's rule", async () => {
    expect(textOf(await h.run("alice", "virtual-host create s3.words.example.com --array lab-1"))).toContain(
      "Added virtual host s3.words.example.com on lab-1.",
    );
    expect(textOf(await h.run("bob", "object-user create loner --array lab-1"))).toContain(
      "<account>/<user>",
    );
    expect(textOf(await h.run("bob", "object-account create media2 --array lab-1"))).toContain(
      "Add buckets with /array bucket create <name> --account media2.",
    );
  });
});
