/** /alerts (flag only) and /alert-watchers (1.2+). */
import { z } from "zod";
import {
  type AlertRec,
  type AlertWatcherRec,
  renderAlert,
  renderAlertWatcher,
  SEVERITIES,
} from "../models/alert.js";
import { bodyObject, parseBody } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import {
  at,
  EMPTY,
  type Handler,
  listing,
  ok,
  requireList,
  resolveAll,
  selectByNamesOrIds,
} from "./common.js";
import { withWindows } from "./maintenance-windows.js";

export const listAlerts: Handler = (req, state) =>
  listing(
    [...state.alerts.values()].map((a) => withWindows(state, a, renderAlert(a, req.version))),
    req,
    { noun: "Alert" },
  );

function alertByName(state: SimState, name: string): AlertRec | undefined {
  return /^\d+$/.test(name) ? state.alerts.get(Number(name)) : undefined;
}

/** Only `flagged` is writable: an operator's acknowledgement, not a change to the alert itself. */
export const updateAlerts: Handler = (req, state) => {
  const alerts = resolveAll(requireList(req, "names"), (n) => alertByName(state, n), "Alert");
  const body = bodyObject(req, "Alert");
  const other = Object.keys(body).filter((k) => k !== "flagged");
  if (other.length > 0) {
    throw badRequest(
      `Only 'flagged' can be changed on an alert; remove ${other.map((k) => `'${k}'`).join(", ")}.`,
    );
  }
  const { flagged } = parseBody(z.strictObject({ flagged: z.boolean() }), body, "Alert", req.version);
  for (const a of alerts) a.flagged = flagged;
  return ok(alerts.map((a) => withWindows(state, a, renderAlert(a, req.version))));
};

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export const listAlertWatchers: Handler = (req, state) =>
  listing(
    [...state.alertWatchers.values()].map((w) => renderAlertWatcher(w, req.version)),
    req,
    { noun: "Alert watcher" },
  );

function severityBody(req: Parameters<Handler>[0], withEnabled: boolean) {
  const shape: Record<string, z.ZodType> = {};
  if (withEnabled) shape["enabled"] = z.boolean();
  if (at(req, "1.8.1")) shape["minimum_notification_severity"] = z.enum(SEVERITIES as [string, ...string[]]);
  return z.strictObject(shape).partial();
}

export const createAlertWatchers: Handler = (req, state) => {
  const names = requireList(req, "names");
  const body = parseBody(
    severityBody(req, false),
    bodyObject(req, "AlertWatcherPost", true),
    "AlertWatcherPost",
    req.version,
  ) as Partial<AlertWatcherRec>;
  for (const n of names) {
    if (!EMAIL.test(n)) throw badRequest(`'${n}' is not an e-mail address.`, n);
    if (state.alertWatchers.has(n)) throw badRequest(`Alert watcher '${n}' already exists.`, n);
  }
  const created = names.map((name) => {
    const w: AlertWatcherRec = {
      id: state.newId(),
      name,
      enabled: true,
      minimum_notification_severity: body.minimum_notification_severity ?? "info",
    };
    state.alertWatchers.set(name, w);
    return w;
  });
  return ok(created.map((w) => renderAlertWatcher(w, req.version)));
};

export const updateAlertWatchers: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.alertWatchers, "Alert watcher") ?? [];
  const body = parseBody(
    severityBody(req, true),
    bodyObject(req, "AlertWatcher"),
    "AlertWatcher",
    req.version,
  );
  for (const w of targets) Object.assign(w, body);
  return ok(targets.map((w) => renderAlertWatcher(w, req.version)));
};

export const deleteAlertWatchers: Handler = (req, state) => {
  const targets = resolveAll(requireList(req, "names"), (n) => state.alertWatchers.get(n), "Alert watcher");
  for (const w of targets) state.alertWatchers.delete(w.name);
  return EMPTY;
};

/** A test message to each watcher; the simulator's mail always goes through. */
export const testAlertWatchers: Handler = (req, state) => {
  const names = req.query.list("names");
  const watchers = names
    ? resolveAll(names, (n) => state.alertWatchers.get(n), "Alert watcher")
    : [...state.alertWatchers.values()];
  return listing(
    watchers.map((w) => ({
      name: w.name,
      accepted: w.enabled,
      error: w.enabled ? null : "Alert watcher is disabled.",
    })),
    req,
  );
};
