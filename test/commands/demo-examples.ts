/** What the tests of /array help's examples share: the demo harness and the examples the demo cannot run. */

import type { Effect } from "../../src/core/context/pipeline-types.js";
import { DEMO_ARRAYS, DEMO_FLEET_MEMBERS } from "../../src/local/demo.js";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";

/** The console's two demo arrays, fb-lab-01 the default. */
export function startDemoHarness(opts: { simulatorClock?: boolean } = {}): Promise<Harness> {
  return startHarness({
    arrays: DEMO_ARRAYS.map((a) => ({ name: a.name, tags: [...a.tags], scenario: a.scenario })),
    config: { channels: { default_array: DEMO_ARRAYS[0].name } },
    ...opts,
  });
}

/** The demo's first array twice, `gen1` on REST 1.x and `new2` on 2.x: a verb's two generations side by side. */
export function startGenerationsHarness(): Promise<Harness> {
  return startHarness({
    arrays: [
      { name: "gen1", versions: "1.0-1.12", scenario: DEMO_ARRAYS[0].scenario },
      { name: "new2", versions: "2.0-2.28", scenario: DEMO_ARRAYS[0].scenario },
    ],
  });
}

/**
 * The console demo's fleet members an example names (`fleet member remove fb-edge-01`): a test's demo starts
 * them, joined to their fleet, for such an example only. With fb-edge-01 in it, fleet-prod cannot be deleted (a
 * fleet goes only when the local array is its last member), so `fleet delete fleet-prod` runs on the demo without.
 */
export function fleetMembersFor(example: string): (typeof DEMO_FLEET_MEMBERS)[number][] {
  const words = new Set(example.split(/\s+/));
  return DEMO_FLEET_MEMBERS.filter((m) => words.has(m.name));
}

/**
 * Changes the demo has already made, so their examples get a clear refusal (in a dry run and for real) rather
 * than a change: the demo's two arrays are connected, and that connection carries their replica links.
 * test/commands/examples-coverage.test.ts runs these on a pair of empty arrays of the same names instead.
 */
export const DONE_ON_DEMO: Readonly<Record<string, RegExp>> = {
  "array-connection create fb-dr-01 --address 10.31.0.20 --array fb-lab-01": /already has a connection/,
  "array-connection create fb-dr-01 --address 10.31.0.20 --encrypted --array fb-lab-01":
    /already has a connection/,
};

/**
 * A keytab file as `base64 -w0` writes it (MIT format 0x0502): nfs/fb-lab-01.corp.example.com@CORP.EXAMPLE.COM's
 * AES-256 and AES-128 keys at key version 3, the keys themselves made up for the tests.
 */
export const KEYTAB_BASE64 =
  "BQIAAABmAAIAEENPUlAuRVhBTVBMRS5DT00AA25mcwAaZmItbGFiLTAxLmNvcnAuZXhhbXBsZS5jb20AAAABaVW5AAMAEgAgEREREREREREREREREREREREREREREREREREREREREREAAAADAAAAZgACABBDT1JQLkVYQU1QTEUuQ09NAANuZnMAGmZiLWxhYi0wMS5jb3JwLmV4YW1wbGUuY29tAAAAAWlVuQADABEAIBERERERERERERERERERERERERERERERERERERERERERAAAAAw==";

/** A value for each secret the private prompt asks for (a join password, a secret key). */
export const SECRET_VALUES: Readonly<Record<string, string>> = {
  password: "J0in-The-Domain!",
  keytabFile: KEYTAB_BASE64,
};

const buttonLabels = (effects: readonly Effect[]) =>
  messagesOf(effects).flatMap((m) =>
    m.blocks.flatMap((b) => (b.type === "actions" ? b.buttons.map((x) => x.label) : [])),
  );

/** Answers the dialogs a click opens as their person would: the typed name, then the secrets. */
async function answerDialogs(h: Harness, user: string, effects: Effect[]): Promise<Effect[]> {
  let typedText: string | undefined;
  for (let step = 0; step < 3; step++) {
    const dialog = effects.find((e) => e.kind === "prompt" || e.kind === "secret");
    if (!dialog || (dialog.kind !== "prompt" && dialog.kind !== "secret")) return effects;
    let secrets: Record<string, string> | undefined;
    if (dialog.kind === "prompt") typedText = (await h.store.get(dialog.pendingId))?.typeToConfirm;
    else
      secrets = Object.fromEntries(dialog.fields.map((f) => [f.key, SECRET_VALUES[f.key] ?? "s3cret-value"]));
    effects = await h.pipeline.handleClick({
      actionId: dialog.actionId,
      value: dialog.pendingId,
      actor: { kind: "console" as const, userId: user, channelId: "C1" },
      ...(typedText === undefined ? {} : { typedText }),
      ...(secrets ? { secrets } : {}),
    });
  }
  return effects;
}

/**
 * Runs `line` as alice and passes whatever gate it meets as people would (Confirm, dave's Approve, the typed
 * name, secrets in the private prompt); returns every effect, the final ones last. `beforeClick`, when given, sees
 * the first answer and the buttons it shows before anyone clicks (what reached the array before the gate).
 */
export async function runThroughGates(
  h: Harness,
  line: string,
  beforeClick?: (asked: readonly Effect[], buttons: readonly string[]) => void,
): Promise<Effect[]> {
  const asked = await h.run("alice", line);
  const shown = buttonLabels(asked);
  beforeClick?.(asked, shown);
  const click = async (user: string, label: string) =>
    answerDialogs(h, user, await h.click(user, asked, label));
  if (shown.includes("Enter secret…")) return [...asked, ...(await click("alice", "Enter secret…"))];
  if (shown.includes("Confirm")) return [...asked, ...(await click("alice", "Confirm"))];
  if (shown.includes("Approve")) return [...asked, ...(await click("dave", "Approve"))];
  return asked;
}
