/**
 * Version negotiation: `GET /api/api_version` (public) lists what the array offers; we speak the highest
 * version both sides know, or the pinned one if the configuration pins it and the array offers it.
 */
import { contract, rejected, versionUnsupported } from "./errors.js";
import { errorEntries, jsonBody } from "./response.js";
import { versionsSchema } from "./schemas.js";
import type { Send } from "./session.js";
import { compareVersions, KNOWN_VERSIONS } from "./versions.js";

const known: ReadonlySet<string> = new Set(KNOWN_VERSIONS);

export function chooseVersion(array: string, offered: readonly string[], pinned?: string): string {
  if (pinned !== undefined) {
    if (!offered.includes(pinned)) throw versionUnsupported(array, offered, pinned);
    return pinned;
  }
  const common = offered.filter((v) => known.has(v)).sort(compareVersions);
  const best = common[common.length - 1];
  if (best === undefined) throw versionUnsupported(array, offered);
  return best;
}

/** Asks the array which versions it offers. */
export async function fetchVersions(array: string, send: Send): Promise<string[]> {
  const path = "/api/api_version";
  const res = await send({ method: "GET", path });
  if (res.status !== 200) {
    throw rejected(array, res.status, errorEntries(res.text), `HTTP ${res.status} from ${path}`);
  }
  const parsed = versionsSchema.safeParse(jsonBody(array, path, res.text));
  if (!parsed.success) throw contract(array, path, "versions", "missing or not a list of strings");
  return parsed.data.versions;
}
