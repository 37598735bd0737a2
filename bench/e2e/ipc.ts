import type { ChildProcess } from "node:child_process";

/** The child's next message (or, given `key`, its next message that has that key). */
export function nextMessage<T>(child: ChildProcess, key?: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (key !== undefined && !(typeof m === "object" && m !== null && key in m)) return;
      child.off("message", on);
      resolve(m as T);
    };
    child.on("message", on);
  });
}
