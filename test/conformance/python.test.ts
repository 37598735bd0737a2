/** A machine without the SDK's Python packages: one line naming what to install, never a traceback. */
import { describe, expect, it } from "vitest";
import { requireModules } from "./python.js";

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
