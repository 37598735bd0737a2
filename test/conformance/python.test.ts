/** A machine without the SDK's Python packages: one line naming what to install, never a traceback. */

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requireImport, requireModules } from "./python.js";

describe("the conformance suites' Python check", () => {
  it("names the missing module and the Debian package in one line", async () => {
    const err = await requireModules("python3", { json: "python3", no_such_module_xyz: "python3-xyz" }).catch(
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toMatch(/lacks the Python module no_such_module_xyz that Pure's SDK needs/);
    expect(err?.message).toContain("apt-get install -y python3 python3-xyz");
    expect(err?.message).not.toContain("\n");
    expect(err?.message).not.toContain("Traceback");
  });

  it("counts every module missing when there is no such Python at all", async () => {
    await expect(requireModules("/nonexistent/python3", { a: "pa", b: "pb" })).rejects.toThrow(
      /^\/nonexistent\/python3 lacks the Python modules a, b that Pure's SDK needs: install them with `apt-get install -y pa pb`/,
    );
  });

  it("passes when every module is there", async () => {
    await expect(requireModules("python3", { json: "python3" })).resolves.toBeUndefined();
  });
});

describe("the conformance suites' import check", () => {
  it("names a module that is there but does not import, in one line without a traceback", async () => {
    const dir = await mkdtemp(join(tmpdir(), "py-import-"));
    try {
      await writeFile(
        join(dir, "needs_v1.py"),
        "import sys\nraise ImportError('needs pydantic 1, found 2\\nsecond line')\n",
      );
      const err = await requireImport("python3", dir, "needs_v1", "install python3-pydantic").catch(
        (e: unknown) => e as Error,
      );
      expect(err?.message).toBe(
        "python3 cannot import needs_v1 (ImportError: needs pydantic 1, found 2): install python3-pydantic",
      );
      await writeFile(join(dir, "fine.py"), "x = 1\n");
      await expect(requireImport("python3", dir, "fine", "")).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
