/** The inspector's CPU profiler around one part of a benchmark (`--profile FILE`), as `--cpu-prof` writes it. */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

/** Starts profiling now; stop() writes the profile to `file`. Undefined file: nothing is profiled. */
export async function startProfile(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (file === undefined) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}
