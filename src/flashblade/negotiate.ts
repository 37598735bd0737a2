/**
 * Version negotiation: `GET /api/api_version` (public) lists what the array offers; we speak the highest
 * version both sides know, or the pinned one if the configuration pins it and the array offers it.
 */

import { performance } from "node:perf_hooks";
import type { Logger } from "../logger.js";
import { atLeast, compareVersions, KNOWN_VERSIONS } from "../rest-spec/versions.js";
import { contract, rejected, versionUnsupported } from "./errors.js";
import { errorEntries, jsonBody } from "./response.js";
import { versionsSchema } from "./schemas.js";
import type { Send } from "./session.js";

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
    if (this.pinned === undefined) this.#version = undefined;
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
