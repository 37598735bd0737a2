/**
 * /quotas/users, /quotas/groups, /usage/users and /usage/groups. Selectors narrow the result; every element of
 * every selector must match at least one resource of the (filtered) result, or the request is refused.
 */
import { z } from "zod";
import { bodyObject, parseBody } from "../models/body.js";
import { type QuotaKind, type QuotaRec, type QuotaTables, quotaKey, renderQuota } from "../models/quota.js";
import { compileFilter } from "../query/index.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, exclusive, type Handler, listing, ok, rejectParam } from "./common.js";

interface KindSpec {
  kind: QuotaKind;
  idParam: "uids" | "gids";
  nameParam: "user_names" | "group_names";
  label: "User" | "Group";
  model: "QuotasUser" | "QuotasGroup";
  tables: (s: SimState) => QuotaTables;
  defaultQuota: (s: SimState, fs: string) => number;
}

export const USERS: KindSpec = {
  kind: "user",
  idParam: "uids",
  nameParam: "user_names",
  label: "User",
  model: "QuotasUser",
  tables: (s) => s.users,
  defaultQuota: (s, fs) => s.fileSystems.get(fs)?.default_user_quota ?? 0,
};

export const GROUPS: KindSpec = {
  kind: "group",
  idParam: "gids",
  nameParam: "group_names",
  label: "Group",
  model: "QuotasGroup",
  tables: (s) => s.groups,
  defaultQuota: (s, fs) => s.fileSystems.get(fs)?.default_group_quota ?? 0,
};

type Row = { fs: string; subject: number; rec: QuotaRec | undefined; item: Record<string, unknown> };

interface Selectors {
  fileSystems?: string[];
  subjects?: { given: string; id: number }[];
  names?: string[];
}

/** Reads and checks the selectors; unknown file systems and user/group names are refused here. */
function readSelectors(req: SimRequest, state: SimState, spec: KindSpec, allowNames: boolean): Selectors {
  exclusive(req, spec.idParam, spec.nameParam);
  const out: Selectors = {};
  const fsNames = req.query.list("file_system_names")?.filter((s) => s !== "");
  if (fsNames?.length) {
    for (const f of fsNames) {
      if (!state.fileSystems.has(f)) throw badRequest(`File system '${f}' does not exist.`, f);
    }
    out.fileSystems = fsNames;
  }
  const ids = req.query.list(spec.idParam)?.filter((s) => s !== "");
  if (ids?.length) {
    out.subjects = ids.map((given) => {
      if (!/^\d+$/.test(given))
        throw badRequest(`'${spec.idParam}' entries must be numeric ids; got '${given}'.`, given);
      return { given, id: Number(given) };
    });
  }
  const names = req.query.list(spec.nameParam)?.filter((s) => s !== "");
  if (names?.length) {
    const dir = spec.tables(state).directory;
    out.subjects = names.map((given) => {
      const entry = dir.find((d) => d.name === given);
      if (!entry) throw badRequest(`${spec.label} '${given}' is not known to the array's directory.`, given);
      return { given, id: entry.id };
    });
  }
  const qnames = req.query.list("names")?.filter((s) => s !== "");
  if (qnames?.length) {
    if (!allowNames) throw badRequest("'names' is not a parameter here.");
    out.names = qnames;
  }
  return out;
}

function renderRow(
  state: SimState,
  spec: KindSpec,
  fs: string,
  subject: number,
  rec: QuotaRec | undefined,
  usageView: boolean,
): Row {
  const t = spec.tables(state);
  const def = spec.defaultQuota(state, fs);
  const explicit = rec?.quota ?? null;
  const quota = usageView && explicit === null ? (def > 0 ? def : null) : explicit;
  const used = (usageView ? usageOf(state, spec) : t.usage).get(quotaKey(fs, subject)) ?? 0;
  const item = renderQuota(spec.kind, fs, subject, quota, used, {
    fileSystemId: state.fileSystems.get(fs)?.id,
    defaultQuota: def,
    subjectName: t.directory.find((d) => d.id === subject)?.name,
  });
  return { fs, subject, rec, item };
}

/** Rows matching all selectors; then each selector element must match at least one remaining row. */
function select(rows: Row[], sel: Selectors, spec: KindSpec, usageView = false): Row[] {
  const fsSet = sel.fileSystems && new Set(sel.fileSystems);
  const idSet = sel.subjects && new Set(sel.subjects.map((s) => s.id));
  const nameSet = sel.names && new Set(sel.names);
  const out = rows.filter(
    (r) =>
      (!fsSet || fsSet.has(r.fs)) &&
      (!idSet || idSet.has(r.subject)) &&
      (!nameSet || nameSet.has(String(r.item["name"]))),
  );
  requireEveryElementMatches(out, sel, spec, usageView);
  return out;
}

/** A usage listing is not a quota listing: its refusals speak of usage. */
function requireEveryElementMatches(rows: Row[], sel: Selectors, spec: KindSpec, usageView: boolean): void {
  const what = usageView ? `${spec.kind} usage` : `${spec.kind} quota`;
  for (const f of sel.fileSystems ?? []) {
    if (!rows.some((r) => r.fs === f)) throw badRequest(`No ${what} matches file system '${f}'.`, f);
  }
  for (const s of sel.subjects ?? []) {
    if (!rows.some((r) => r.subject === s.id))
      throw badRequest(`No ${what} matches ${spec.kind} '${s.given}'.`, s.given);
  }
  for (const n of sel.names ?? []) {
    if (!rows.some((r) => r.item["name"] === n)) throw badRequest(`No ${what} named '${n}'.`, n);
  }
}

function allRows(state: SimState, spec: KindSpec, usageView: boolean): Row[] {
  const t = spec.tables(state);
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const [key, rec] of t.quotas) {
    seen.add(key);
    rows.push(renderRow(state, spec, rec.fileSystem, rec.subject, rec, usageView));
  }
  if (usageView) {
    for (const key of usageOf(state, spec).keys()) {
      if (seen.has(key)) continue;
      const [fs = "", subject = "0"] = key.split("\u0000");
      rows.push(renderRow(state, spec, fs, Number(subject), undefined, true));
    }
  }
  return rows;
}

/** A file's bytes belong to its group too: who has no group of their own lands in `users` (gid 100). */
export const DEFAULT_GID = 100;

/**
 * Bytes per `<fs, uid|gid>`. Users' usage is as recorded. Group usage is as recorded where the array has
 * group figures for a file system; elsewhere it is the users' usage summed by their primary group, so group
 * usage exists wherever user usage does.
 */
export function usageOf(state: SimState, spec: KindSpec): Map<string, number> {
  if (spec.kind === "user") return state.users.usage;
  const out = new Map(state.groups.usage);
  const recorded = new Set([...state.groups.usage.keys()].map((k) => k.split("\u0000")[0]));
  for (const [key, bytes] of state.users.usage) {
    const [fs = "", uid = "0"] = key.split("\u0000");
    if (recorded.has(fs)) continue;
    const gid = state.users.directory.find((d) => d.id === Number(uid))?.gid ?? DEFAULT_GID;
    const gkey = quotaKey(fs, gid);
    out.set(gkey, (out.get(gkey) ?? 0) + bytes);
  }
  return out;
}

function listHandler(spec: KindSpec, usageView: boolean): Handler {
  return (req, state) => {
    // GET /quotas/users and /usage/users take uids only (no user_names); the group listings take both.
    if (spec.kind === "user")
      rejectParam(req, "user_names", "select users with 'uids' or filter on user.name.");
    const sel = readSelectors(req, state, spec, true);
    let rows = allRows(state, spec, usageView);
    const filter = req.query.string("filter");
    if (filter) {
      const pred = compileFilter(filter);
      rows = rows.filter((r) => pred(r.item));
    }
    rows = select(rows, sel, spec, usageView);
    return listing(
      rows.map((r) => r.item),
      req,
      { nameParams: [] },
    );
  };
}

const quotaBody = z.strictObject({ quota: z.int().min(1) });

function createHandler(spec: KindSpec): Handler {
  return (req, state) => {
    rejectParam(
      req,
      "names",
      `select with 'file_system_names' and '${spec.idParam}' or '${spec.nameParam}'.`,
    );
    const sel = readSelectors(req, state, spec, false);
    if (!sel.fileSystems) throw badRequest("'file_system_names' is required.");
    if (!sel.subjects) throw badRequest(`'${spec.idParam}' or '${spec.nameParam}' is required.`);
    const { quota } = parseBody(quotaBody, bodyObject(req, spec.model), spec.model, req.version);
    const t = spec.tables(state);
    const subjects = [...new Map(sel.subjects.map((s) => [s.id, s])).values()];
    for (const fs of sel.fileSystems) {
      if (state.fileSystems.get(fs)?.destroyed) throw badRequest(`File system '${fs}' is destroyed.`, fs);
      for (const s of subjects) {
        if (t.quotas.has(quotaKey(fs, s.id))) {
          throw badRequest(
            `${spec.label} '${s.given}' already has a quota on '${fs}'; update it with PATCH.`,
            `${fs}/${s.given}`,
          );
        }
      }
    }
    const created: Row[] = [];
    for (const fs of new Set(sel.fileSystems)) {
      for (const s of subjects) {
        const rec: QuotaRec = { fileSystem: fs, subject: s.id, quota };
        t.quotas.set(quotaKey(fs, s.id), rec);
        created.push(renderRow(state, spec, fs, s.id, rec, false));
      }
    }
    return ok(created.map((r) => r.item));
  };
}

function selectExisting(req: SimRequest, state: SimState, spec: KindSpec): Row[] {
  const sel = readSelectors(req, state, spec, true);
  if (!sel.fileSystems && !sel.subjects && !sel.names) {
    throw badRequest(
      `Select quotas with 'names', 'file_system_names', '${spec.idParam}' or '${spec.nameParam}'.`,
    );
  }
  return select(allRows(state, spec, false), sel, spec);
}

function updateHandler(spec: KindSpec): Handler {
  return (req, state) => {
    const rows = selectExisting(req, state, spec);
    const { quota } = parseBody(quotaBody, bodyObject(req, spec.model), spec.model, req.version);
    for (const r of rows) if (r.rec) r.rec.quota = quota;
    return ok(rows.map((r) => renderRow(state, spec, r.fs, r.subject, r.rec, false).item));
  };
}

function deleteHandler(spec: KindSpec): Handler {
  return (req, state) => {
    const rows = selectExisting(req, state, spec);
    const t = spec.tables(state);
    for (const r of rows) t.quotas.delete(quotaKey(r.fs, r.subject));
    return EMPTY;
  };
}

export const quotaHandlers = (spec: KindSpec) => ({
  list: listHandler(spec, false),
  usage: listHandler(spec, true),
  create: createHandler(spec),
  update: updateHandler(spec),
  remove: deleteHandler(spec),
});
