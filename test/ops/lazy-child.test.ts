/** `lazyChild`: a request's child logger is made only when the request logs, and logs as `child()` would. */
import { describe, expect, it } from "vitest";
import { lazyChild } from "../../src/logger.js";
import { memoryLogger } from "../fakes/memory-logger.js";

describe("lazyChild", () => {
  it("makes no pino child until a line is logged, then logs with the bindings, nested too", () => {
    const mem = memoryLogger("info");
    let made = 0;
    const child = mem.logger.child;
    mem.logger.child = function (this: typeof mem.logger, ...args: Parameters<typeof child>) {
      made++;
      return child.apply(this, args);
    } as typeof child;
    const req = lazyChild(mem.logger, { reqId: "t-1", user: "U1" });
    const onArray = lazyChild(req, { array: "lab-1" });
    expect(made).toBe(0);
    onArray.debug("below the level: nothing written");
    // The request's child, then the array's under it (pino children inherit the patched `child`).
    expect(made).toBe(2);
    onArray.info({ code: "FORBIDDEN" }, "request refused");
    req.warn("slow array");
    expect(made).toBe(2);
    expect(mem.lines.map((l) => [l["msg"], l["reqId"], l["user"], l["array"], l["code"]])).toEqual([
      ["request refused", "t-1", "U1", "lab-1", "FORBIDDEN"],
      ["slow array", "t-1", "U1", undefined, undefined],
    ]);
    expect(req.isLevelEnabled("debug")).toBe(false);
    expect(req.level).toBe("info");
  });

  it("redacts secrets in its bindings like any child", () => {
    const mem = memoryLogger("info");
    lazyChild(mem.logger, { api_token: "T-secret-123", reqId: "t-2" }).info("hello");
    expect(mem.text()).not.toContain("T-secret-123");
    expect(mem.lines[0]?.["reqId"]).toBe("t-2");
  });
});
