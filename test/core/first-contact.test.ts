/**
 * What a new user hits first: --public, sizes without a unit, fan-out of commands that name one object, and
 * option names or values that are members of Object.prototype.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "./harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "lab-1", tags: ["lab"] },
      { name: "lab-2", tags: ["lab"] },
    ],
    config: {
      channels: {
        default_array: "lab-1",
        bindings: { "C-QUIET": { arrays: ["all"], public_answers: false } },
      },
    },
  });
});
afterAll(async () => h.close());

const visibility = (effects: Awaited<ReturnType<Harness["run"]>>) =>
  messagesOf(effects)[0]?.visibility ?? "ephemeral";

describe("--public", () => {
  test("a lookup answers in the channel with --public, privately without, and is audited either way", async () => {
    expect(visibility(await h.run("carol", "fs list"))).toBe("ephemeral");
    const effects = await h.run("carol", "fs list --public");
    expect(visibility(effects)).toBe("in_channel");
    expect(textOf(effects)).toContain("home");
    expect(h.audits.at(-1)).toMatchObject({
      command: "fs.list",
      decision: "allowed",
      outcome: "ok",
      args: { public: true },
    });
  });

  test("every read command takes it, fan-out included", async () => {
    for (const text of ["space --array all --public", "arrays --public", "alert list --public"]) {
      const effects = await h.run("carol", text);
      expect(visibility(effects), text).toBe("in_channel");
    }
  });

  test("refused where the channel's configuration does not allow public answers", async () => {
    const effects = await h.run("carol", "fs list --public", { channel: "C-QUIET" });
    expect(textOf(effects)).toContain("does not take public answers");
    expect(visibility(effects)).toBe("ephemeral");
    expect(h.audits.at(-1)).toMatchObject({ decision: "denied", errorCode: "CHANNEL_PUBLIC_FORBIDDEN" });
  });

  test("a change is announced anyway, so --public on it is refused with the reason", async () => {
    expect(textOf(await h.run("bob", "fs create x1 1G --public"))).toContain("drop --public");
  });
});

describe("sizes need a unit", () => {
  test("a bare number is refused with a suggestion and nothing is created", async () => {
    const before = h.sims.get("lab-1")?.control.stats().total ?? 0;
    const effects = await h.run("bob", "fs create tiny 500");
    expect(textOf(effects)).toContain("did you mean 500G?");
    expect(h.sims.get("lab-1")?.control.stats().total).toBe(before);
    expect(h.audits.at(-1)).toMatchObject({ outcome: "error", errorCode: "INVALID_ARGUMENTS" });
  });

  test("an explicit B means bytes, and the preview shows binary units", async () => {
    const effects = await h.run("bob", "fs create tiny 4096B --dry-run");
    expect(textOf(effects)).toContain("4 KiB");
    expect(textOf(await h.run("bob", "fs create tiny2 1.5T --dry-run"))).toContain("1.5 TiB");
  });

  test("the same rule holds for quotas; 0 (none) needs no unit", async () => {
    expect(textOf(await h.run("bob", "quota set user alice 20 --fs home"))).toContain("did you mean 20G?");
    expect(textOf(await h.run("bob", "fs update home --default-user-quota 20"))).toContain(
      "did you mean 20G?",
    );
    expect(textOf(await h.run("bob", "fs update home --default-user-quota 0 --dry-run"))).not.toContain(
      "did you mean",
    );
  });
});

describe("fan-out only where it means something", () => {
  test("a command naming one object by an array-local id refuses --array all and tag:", async () => {
    const before =
      (h.sims.get("lab-1")?.control.stats().total ?? 0) + (h.sims.get("lab-2")?.control.stats().total ?? 0);
    for (const text of [
      "alert flag 2 --array all",
      "alert flag 2 --array tag:lab",
      "fs show home --array lab-1,lab-2",
    ]) {
      const effects = await h.run("bob", text);
      expect(textOf(effects), text).toContain("runs on one array at a time");
      expect(h.audits.at(-1)).toMatchObject({ outcome: "error", errorCode: "ONE_ARRAY_ONLY" });
    }
    const after =
      (h.sims.get("lab-1")?.control.stats().total ?? 0) + (h.sims.get("lab-2")?.control.stats().total ?? 0);
    expect(after).toBe(before);
  });

  test("listings still fan out, including one whose required word is a kind, not an object", async () => {
    const text = textOf(await h.run("carol", "fs list --array all"));
    expect(text).toContain("lab-1");
    expect(text).toContain("lab-2");
    const quotas = textOf(await h.run("carol", "quota list user --array all"));
    expect(quotas).not.toContain("runs on one array at a time");
    expect(h.audits.at(-1)).toMatchObject({ command: "quota.list", arrays: ["lab-1", "lab-2"] });
  });
});

describe("hostile keys", () => {
  const PROTO = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

  test("prototype names as options give a user-facing error and send nothing", async () => {
    const before = h.sims.get("lab-1")?.control.stats().total ?? 0;
    for (const key of PROTO) {
      for (const text of [`fs list --${key}`, `fs list --${key} x`, `fs list --sort ${key}`]) {
        const effects = await h.run("carol", text);
        const shown = textOf(effects);
        expect(shown, text).not.toContain("Something went wrong");
        expect(shown, text).not.toContain("native code");
        expect(h.audits.at(-1), text).toMatchObject({ outcome: "error" });
        expect(h.audits.at(-1)?.errorCode, text).not.toBe("INTERNAL");
      }
    }
    expect(h.sims.get("lab-1")?.control.stats().total).toBe(before);
  });
});

describe("the bot's own backticks stay code; the user's cannot pair with them", () => {
  const STAND_IN = "\u200b\u02cb";
  const markupOf = (effects: Awaited<ReturnType<Harness["run"]>>) =>
    messagesOf(effects)
      .flatMap((m) => m.blocks.map((b) => ("text" in b && typeof b.text !== "string" ? b.text.markup : "")))
      .join("\n");

  test("a did-you-mean and a usage line show real code spans", async () => {
    const markup = markupOf(await h.run("carol", "fs lsit"));
    expect(markup).toContain("Did you mean `fs list`?");
    expect(markup).not.toContain(STAND_IN);
    const usage = markupOf(await h.run("carol", "fs list --nope"));
    expect(usage).toContain("for `fs list`");
    expect(usage).toContain("Usage: /array fs list");
  });

  test("a backtick the user typed is shown as its look-alike inside the bot's code span", async () => {
    const markup = markupOf(await h.run("carol", "fs li`st"));
    expect(markup).toContain(`\`fs li${STAND_IN}st\` is not a command.`);
    const option = markupOf(await h.run("carol", "fs list --a`b"));
    expect(option).toContain(`Unknown option --a${STAND_IN}b for \`fs list\``);
  });
});
