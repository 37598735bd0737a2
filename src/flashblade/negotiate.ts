/**
 * Version negotiation: `GET /api/api_version` (public) lists what the array offers, 1.x and 2.x alike. The
 * array's `api` setting chooses: `auto` (default) the newest 2.x version both sides know, else the newest 1.x;
 * `1` or `2` the newest of that generation; a version pins exactly that one (when the array offers it).
 */

import { performance } from "node:perf_hooks";
import type { Logger } from "../logger.js";
import { atLeast, compareVersions, generationOf, KNOWN_VERSIONS } from "../rest-spec/versions.js";
import { contract, rejected, versionUnsupported } from "./errors.js";
import { errorEntries, jsonBody } from "./response.js";
import { versionsSchema } from "./schemas.js";
import type { Send } from "./session.js";

const known: ReadonlySet<string> = new Set(KNOWN_VERSIONS);

/** The array's `api` setting: "auto", "1", "2" or a version. */
export type ApiPreference = string;

/** Whether the setting names one version (kept across reconnects) rather than a choice. */
export function isPinned(api: ApiPreference | undefined): api is string {
  return api !== undefined && api !== "auto" && api !== "1" && api !== "2";
}

export function chooseVersion(array: string, offered: readonly string[], api?: ApiPreference): string {
  if (isPinned(api)) {
    if (!offered.includes(api)) throw versionUnsupported(array, offered, api);
    return api;
  }
  const generation = api === "1" ? 1 : api === "2" ? 2 : undefined;
  // Ascending, 1.x before 2.x: the last is the newest 2.x when there is one (auto), else the newest 1.x.
  const common = offered
    .filter((v) => known.has(v) && (generation === undefined || generationOf(v) === generation))
    .sort(compareVersions);
  const best = common[common.length - 1];
  if (best === undefined)
    throw versionUnsupported(array, offered, generation === undefined ? undefined : `${generation}.x`);
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

/** The version one array speaks: negotiated on first use (single-flight), forgotten when asked. */
export class VersionState {
  #version: string | undefined;
  #pending: Promise<string> | undefined;
  #speaksVersion: string | undefined;
  readonly #speaks = new Map<string, boolean>();

  constructor(
    private readonly array: string,
    private readonly pinned: string | undefined,
    private readonly send: Send,
    private readonly log: Logger,
    /** Hears each negotiation's outcome (the pool's call observer): one per exchange, however many waited. */
    private readonly negotiated: (
      outcome: { status: number } | { err: unknown },
      ms: number,
    ) => void = () => {},
  ) {}

  /** The negotiated version, when known (the hot path reads it without a promise). */
  get current(): string | undefined {
    return this.#version;
  }

  get(): Promise<string> {
    if (this.#version !== undefined) return Promise.resolve(this.#version);
    this.#pending ??= this.#negotiate().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #negotiate(): Promise<string> {
    const started = performance.now();
    try {
      const chosen = chooseVersion(this.array, await fetchVersions(this.array, this.send), this.pinned);
      this.#version = chosen;
      this.log.info({ version: chosen }, "negotiated API version");
      this.negotiated({ status: 200 }, performance.now() - started);
      return chosen;
    } catch (err) {
      this.negotiated({ err }, performance.now() - started);
      throw err;
    }
  }

  /** Asks again on next use (after an outage: the array may have been upgraded). Pinned versions stay. */
  forget(): void {
    if (!isPinned(this.pinned)) this.#version = undefined;
  }

  /**
   * atLeast(version, since), remembered: it runs on every call and there are only a dozen `since` values.
   * Kept for one version at a time (an array speaks one), so the hot path builds no key string.
   */
  speaks(version: string, since: string): boolean {
    if (version !== this.#speaksVersion) {
      this.#speaksVersion = version;
      this.#speaks.clear();
    }
    let ok = this.#speaks.get(since);
    if (ok === undefined) {
      ok = atLeast(version, since);
      this.#speaks.set(since, ok);
    }
    return ok;
  }
}
