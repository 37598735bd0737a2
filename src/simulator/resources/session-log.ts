/**
 * `/sessions` (2.3+): the array's record of logins, logouts and failed logins, written by the real logins the
 * router serves (never seeded). Values as the Session model lists them: `event` `login`, `logout` or `failed
 * authentication`, `method` `API token`, `user_interface` `REST`, `location` the client's address, `end_time` 0
 * while the session is open. The session tokens themselves are never stored in the state.
 */
import { createIdSource, createRng } from "../models/random.js";
import type { SimState } from "../state.js";
import { type Handler, listing } from "./common.js";
import { type Rec, records } from "./family-store.js";

export const SESSIONS = "/sessions";

/** Open sessions' records by token, beside the state (a token is a secret: not part of what the API lists). */
const openByToken = new WeakMap<SimState, Map<string, Rec>>();
/**
 * Session ids come from a source of their own: a login drawing from the state's would shift the id of every
 * object created after it, and whether a client logs in once or twice must not change what the array holds.
 */
const idSources = new WeakMap<SimState, () => string>();

function sessionId(state: SimState): string {
  let next = idSources.get(state);
  if (!next) {
    next = createIdSource(createRng(state.seed ^ 0x5e5510));
    idSources.set(state, next);
  }
  return next();
}

/** The log keeps the newest events, as an array's does, so a long-running simulator's memory stays bounded. */
const KEEP = 1000;
const counts = new WeakMap<SimState, number>();

function add(state: SimState, fields: Record<string, unknown>): Rec {
  const log = records(state, SESSIONS);
  const n = (counts.get(state) ?? 0) + 1;
  counts.set(state, n);
  if (log.size >= KEEP) log.delete(log.keys().next().value as string);
  const rec = {
    name: `session-${n}`,
    id: sessionId(state),
    start_time: state.clock(),
    end_time: 0,
    event_count: 1,
    method: "API token",
    user_interface: "REST",
    identifying_details: "",
    ...fields,
  } as Rec;
  log.set(rec.name, rec);
  return rec;
}

export function recordLogin(state: SimState, user: string, token: string, location: string): void {
  const rec = add(state, { event: "login", user, location });
  const open = openByToken.get(state) ?? new Map<string, Rec>();
  open.set(token, rec);
  openByToken.set(state, open);
}

export function recordFailedLogin(state: SimState, location: string): void {
  add(state, { event: "failed authentication", user: "", location, end_time: state.clock() });
}

/** A logout of an open session ends it (its `end_time`) and is an event of its own. */
export function recordLogout(state: SimState, token: string | undefined, location: string): void {
  const open = openByToken.get(state);
  const rec = token === undefined ? undefined : open?.get(token);
  if (rec === undefined || token === undefined) return;
  open?.delete(token);
  const now = state.clock();
  rec["end_time"] = now;
  add(state, { event: "logout", user: rec["user"], location, end_time: now });
}

export const listSessions: Handler = (req, state) =>
  listing([...records(state, SESSIONS).values()], req, { noun: "Session" });
