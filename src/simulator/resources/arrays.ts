/** /arrays and /arrays/space. */
import { z } from "zod";
import { renderArray } from "../models/array.js";
import { bodyObject, parseBody } from "../models/body.js";
import { renderSpace, type SpaceRec } from "../models/file-system.js";
import { noise } from "../models/random.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { at, type Handler, listing, ok } from "./common.js";
import { sampleTimes } from "./time-window.js";

const HOUR_MS = 3_600_000;

export const listArrays: Handler = (req, state) =>
  listing([renderArray(state.array, req.version, state.clock())], req);

/** The IANA zones, as a 1.12 array lists them under /arrays/supported-time-zones (several hundred). */
const TIME_ZONES = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);

export const listSupportedTimeZones: Handler = (req) =>
  listing(
    [...TIME_ZONES].sort().map((name) => ({ name })),
    req,
    { noun: "Time zone" },
  );

const HOST = z.string().regex(/^[A-Za-z0-9.:-]{1,253}$/, "a host name or address");

function patchSchema(req: SimRequest) {
  const shape: Record<string, z.ZodType> = {
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,54}$/, "letters, digits and '-' (at most 55 characters)"),
    ntp_servers: z.array(HOST),
  };
  if (at(req, "1.5")) {
    shape["time_zone"] = z
      .string()
      .refine((tz) => TIME_ZONES.has(tz), "must be an IANA time zone such as Europe/Berlin");
  }
  if (at(req, "1.10")) shape["banner"] = z.string().max(4096);
  if (at(req, "1.12")) {
    shape["idle_timeout"] = z
      .int()
      .refine((v) => v === 0 || (v >= 300_000 && v <= 10_800_000), "must be 0 or 300000-10800000 ms");
  }
  return z.strictObject(shape).partial();
}

export const updateArrays: Handler = (req, state) => {
  const body = bodyObject(req, "PureArray");
  for (const f of ["id", "os", "version", "revision", "_as_of"]) {
    if (f in body) throw badRequest(`'${f}' is read-only in PureArray.`);
  }
  const parsed = parseBody(patchSchema(req), body, "PureArray", req.version) as Partial<typeof state.array>;
  Object.assign(state.array, parsed);
  return ok([renderArray(state.array, req.version, state.clock())]);
};

const SPACE_TYPES = ["array", "file-system", "object-store"] as const;
type SpaceType = (typeof SPACE_TYPES)[number];

function currentSpace(state: SimState, type: SpaceType): SpaceRec {
  const total: SpaceRec = { virtual: 0, unique: 0, snapshots: 0, data_reduction: 1 };
  const add = (s: SpaceRec) => {
    total.virtual += s.virtual;
    total.unique += s.unique;
    total.snapshots += s.snapshots;
  };
  // Destroyed objects still hold their space until they are eradicated.
  if (type !== "object-store") for (const fs of state.fileSystems.values()) add(fs.space);
  if (type !== "file-system") for (const b of state.buckets.values()) add(b.space);
  total.data_reduction = total.unique > 0 ? Math.round((total.virtual / total.unique) * 10) / 10 : 1;
  return total;
}

/**
 * Space `ago` ms in the past: usage grew about 1 % a day, so older samples read a little lower, with the jitter
 * of a real array (files written and deleted, snapshots taken and expired), so a forecast from
 * it has a range that is a range. The current sample is the objects' own figures.
 */
function spaceAt(now: SpaceRec, ago: number, seed: number, t: number): SpaceRec {
  // Day to day (±1.5 %: a busy day, a quiet one) and hour to hour (±0.5 %).
  const day = (2 * noise(seed, 0x5acd, Math.floor(t / (24 * HOUR_MS))) - 1) * 0.015;
  const hour = (2 * noise(seed, 0x5ace, Math.floor(t / HOUR_MS)) - 1) * 0.005;
  const jitter = ago < HOUR_MS ? 0 : day + hour;
  const f = Math.max(0.2, 1 - (0.01 * ago) / 86_400_000 + jitter);
  return {
    virtual: Math.round(now.virtual * f),
    unique: Math.round(now.unique * f),
    snapshots: Math.round(now.snapshots * f),
    data_reduction: now.data_reduction,
  };
}

/** `now` scaled so that unique + snapshots (total physical) reads `used` (an incident scenario's history). */
function scaledTo(now: SpaceRec, used: number | undefined): SpaceRec | undefined {
  if (used === undefined) return undefined;
  const f = now.unique + now.snapshots > 0 ? used / (now.unique + now.snapshots) : 0;
  return {
    virtual: Math.round(now.virtual * f),
    unique: Math.round(now.unique * f),
    snapshots: Math.round(now.snapshots * f),
    data_reduction: now.data_reduction,
  };
}

export const listArraySpace: Handler = (req, state) => {
  const type = (req.query.string("type") ?? "array").toLowerCase();
  if (!SPACE_TYPES.includes(type as SpaceType)) {
    throw badRequest(`'type' must be one of ${SPACE_TYPES.join(", ")}.`, type);
  }
  const now = state.clock();
  const current = currentSpace(state, type as SpaceType);
  const bent = state.effects?.spaceUsed;
  const items = sampleTimes(req, now).map((t) => ({
    name: state.array.name,
    capacity: state.array.capacity,
    parity: state.array.parity,
    space: renderSpace(scaledTo(current, bent?.(type, t)) ?? spaceAt(current, now - t, state.seed, t)),
    time: t,
  }));
  return listing(items, req, { nameParams: [] });
};
