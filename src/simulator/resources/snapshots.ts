/** /file-system-snapshots: create from sources, list, destroy/recover, eradicate. */
import { z } from "zod";
import { NAME_RULES } from "../../rest-spec/names.js";
import { bodyObject, parseBody } from "../models/body.js";
import { applyDestroyed, type FileSystemRec } from "../models/file-system.js";
import { addSnapshot, renderSnapshot, type SnapshotRec } from "../models/snapshot.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import {
  at,
  byId,
  EMPTY,
  exclusive,
  type Handler,
  listing,
  ok,
  paramSince,
  resolveAll,
  selectByNameOrIds,
} from "./common.js";

const SUFFIX = NAME_RULES["snapshot-suffix"].pattern;

/** Renders snapshots at one version and instant; policy names are looked up once per call. */
export function snapshotRenderer(
  state: SimState,
  version: string,
): (s: SnapshotRec) => Record<string, unknown> {
  const now = state.clock();
  const policyNames = new Map([...state.policies.values()].map((p) => [p.id, p.name]));
  return (s) =>
    renderSnapshot(s, version, {
      now,
      arrayName: state.array.name,
      arrayId: state.array.id,
      sourceDestroyed: state.fileSystems.get(s.source)?.destroyed ?? false,
      policyName: s.policy ? policyNames.get(s.policy.id) : undefined,
    });
}

/** Every element of names_or_sources (or names_or_owner_names) must name a snapshot or a file system. */
function selectNamesOrSources(req: SimRequest, state: SimState, param: string): SnapshotRec[] | undefined {
  const wanted = req.query.list(param)?.filter((s) => s !== "");
  if (!wanted || wanted.length === 0) return undefined;
  const sources = new Set<string>();
  for (const s of state.snapshots.values()) sources.add(s.source);
  for (const w of wanted) {
    if (!state.snapshots.has(w) && !sources.has(w) && !state.fileSystems.has(w)) {
      throw badRequest(`No snapshot or file system named '${w}'.`, w);
    }
  }
  const set = new Set(wanted);
  return [...state.snapshots.values()].filter((s) => set.has(s.name) || set.has(s.source));
}

export const listSnapshots: Handler = (req, state) => {
  paramSince(req, "names_or_owner_names", "1.9");
  exclusive(req, "names_or_sources", "names_or_owner_names");
  let items = selectNamesOrSources(req, state, "names_or_sources") ??
    selectNamesOrSources(req, state, "names_or_owner_names") ?? [...state.snapshots.values()];
  for (const [param, field] of [
    ["source_ids", "sourceId"],
    ["owner_ids", "sourceId"],
  ] as const) {
    const ids = req.query.list(param);
    if (!ids) continue;
    const known = new Set([...state.fileSystems.values()].map((f) => f.id));
    for (const id of ids) if (!known.has(id)) throw badRequest(`No file system with id '${id}'.`, id);
    const set = new Set(ids);
    items = items.filter((s) => set.has(s[field]));
  }
  const destroyed = req.query.bool("destroyed");
  if (destroyed !== undefined) items = items.filter((s) => s.destroyed === destroyed);
  return listing(items.map(snapshotRenderer(state, req.version)), req, {
    totals: at(req, "1.12") ? "none" : "object",
    nameParams: [],
  });
};

const suffixBody = z.strictObject({ suffix: z.string().regex(SUFFIX, "letters, digits, '-' or '_'") });

/** Array-chosen suffixes are increasing numbers, skipping any already taken on that file system. */
function nextSuffix(state: SimState, fsName: string): string {
  for (;;) {
    state.snapshotSeq += 1;
    const suffix = String(state.snapshotSeq);
    if (!state.snapshots.has(`${fsName}.${suffix}`)) return suffix;
  }
}

export const createSnapshots: Handler = (req, state) => {
  paramSince(req, "source_ids", "1.9");
  exclusive(req, "sources", "source_ids");
  const body = bodyObject(req, "SnapshotSuffix", true);
  const given =
    Object.keys(body).length === 0
      ? undefined
      : parseBody(suffixBody, body, "SnapshotSuffix", req.version).suffix;
  const sourceNames = req.query.list("sources")?.filter((s) => s !== "");
  const sourceIds = req.query.list("source_ids")?.filter((s) => s !== "");
  let sources: FileSystemRec[];
  if (sourceNames && sourceNames.length > 0) {
    sources = resolveAll(sourceNames, (n) => state.fileSystems.get(n), "Source file system");
  } else if (sourceIds && sourceIds.length > 0) {
    const index = byId(state.fileSystems.values());
    sources = resolveAll(sourceIds, (i) => index.get(i), "Source file system with id");
  } else {
    throw badRequest("'sources' is required: the file systems to snapshot.");
  }
  for (const fs of sources) {
    if (fs.destroyed)
      throw badRequest(`File system '${fs.name}' is destroyed; recover it before snapshotting.`, fs.name);
    if (given !== undefined && state.snapshots.has(`${fs.name}.${given}`)) {
      throw badRequest(`Snapshot '${fs.name}.${given}' already exists.`, `${fs.name}.${given}`);
    }
  }
  const now = state.clock();
  const created = sources.map((fs) => addSnapshot(state, fs, given ?? nextSuffix(state, fs.name), now));
  return ok(created.map(snapshotRenderer(state, req.version)));
};

const patchBody = z.strictObject({ destroyed: z.boolean() }).partial();

export const updateSnapshots: Handler = (req, state) => {
  const targets = selectByNameOrIds(req, state.snapshots, "Snapshot");
  const body = parseBody(patchBody, bodyObject(req, "FileSystemSnapshot"), "FileSystemSnapshot", req.version);
  if (body.destroyed === false) {
    for (const s of targets) {
      if (s.destroyed && state.fileSystems.get(s.source)?.destroyed) {
        throw badRequest(
          `Recover file system '${s.source}' before recovering its snapshot '${s.name}'.`,
          s.name,
        );
      }
    }
  }
  const now = state.clock();
  for (const s of targets) {
    applyDestroyed(s, body.destroyed, now);
  }
  return ok(targets.map(snapshotRenderer(state, req.version)));
};

export const deleteSnapshots: Handler = (req, state) => {
  const targets = selectByNameOrIds(req, state.snapshots, "Snapshot");
  for (const s of targets) {
    if (!s.destroyed) {
      throw badRequest(
        `Snapshot '${s.name}' is not destroyed; destroy it (PATCH destroyed=true) before eradicating it.`,
        s.name,
      );
    }
  }
  for (const s of targets) state.snapshots.delete(s.name);
  return EMPTY;
};
