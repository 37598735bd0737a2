/**
 * The state controls (alerts, usage, link and hardware health…) offered through `sim.control` and the HTTP
 * control interface. The work is done by state-control.ts; this file only validates and forwards.
 */
import { z } from "zod";
import { SEVERITIES } from "./models/alert.js";
import { pathDeletion } from "./resources/legal-holds.js";
import { mountAccess } from "./resources/mount-access.js";
import type { SimState } from "./state.js";
import * as sc from "./state-control.js";

const severity = z.enum(SEVERITIES as [sc.NewAlert["severity"], ...sc.NewAlert["severity"][]]);
const alertState = z.enum(["open", "closing", "closed", "waiting to downgrade"]);
const bytes = z.number().int().min(0);
const variables = z.record(z.string(), z.string());

interface StateOp<S extends z.ZodType> {
  schema: S;
  run(state: SimState, input: z.output<S>): unknown;
}
const op = <S extends z.ZodType>(
  schema: S,
  run: (state: SimState, input: z.output<S>) => unknown,
): StateOp<S> => ({
  schema,
  run,
});
const done = { ok: true };
const linkStatus = z.enum(["replicating", "paused", "unhealthy"]);

/** Operation name (as in `POST /_control/<name>`) → body schema and what it does. */
export const STATE_OPS = {
  "raise-alert": op(
    z.strictObject({
      code: z.number().int().min(0),
      severity,
      component: z.string().min(1),
      subject: z.string().min(1),
      description: z.string().optional(),
      action: z.string().optional(),
      knowledge_base_url: z.string().optional(),
      variables: variables.optional(),
      state: alertState.optional(),
      flagged: z.boolean().optional(),
      created: z.number().int().min(0).optional(),
    }),
    (s, a) => sc.raiseAlert(s, a),
  ),
  "update-alert": op(
    z.strictObject({
      index: z.number().int().positive(),
      severity: severity.optional(),
      state: alertState.optional(),
      subject: z.string().min(1).optional(),
      description: z.string().optional(),
      variables: variables.optional(),
    }),
    (s, { index, ...change }) => sc.updateAlert(s, index, change),
  ),
  "clear-alert": op(z.strictObject({ index: z.number().int().positive() }), (s, a) =>
    sc.closeAlert(s, a.index),
  ),
  "set-usage": op(
    z.strictObject({
      fileSystem: z.string().min(1),
      bytes,
      snapshots: bytes.optional(),
      dataReduction: z.number().min(1).optional(),
    }),
    (s, u) => {
      sc.setFileSystemUsage(s, u.fileSystem, u.bytes, {
        snapshots: u.snapshots,
        dataReduction: u.dataReduction,
      });
      return done;
    },
  ),
  "set-bucket-usage": op(
    z.strictObject({ bucket: z.string().min(1), bytes, objects: bytes.optional() }),
    (s, u) => {
      sc.setBucketUsage(s, u.bucket, u.bytes, u.objects);
      return done;
    },
  ),
  "set-quota-usage": op(
    z.strictObject({
      kind: z.enum(["user", "group"]),
      fileSystem: z.string().min(1),
      who: z.union([z.number().int().min(0), z.string().min(1)]),
      bytes,
    }),
    (s, u) => {
      sc.setQuotaUsage(s, u.kind, u.fileSystem, u.who, u.bytes);
      return done;
    },
  ),
  "set-link-status": op(
    z.union([
      z.strictObject({ bucket: z.string().min(1), status: linkStatus, details: z.string().optional() }),
      z.strictObject({ fileSystem: z.string().min(1), status: linkStatus, details: z.string().optional() }),
    ]),
    (s, u) => {
      sc.setReplicaLinkStatus(
        s,
        "bucket" in u ? { bucket: u.bucket } : { fileSystem: u.fileSystem },
        u.status,
        u.details,
      );
      return done;
    },
  ),
  "set-connection-status": op(
    z.strictObject({
      remote: z.string().min(1),
      status: z.enum(["connected", "partially_connected", "connecting", "incompatible"]),
    }),
    (s, u) => {
      sc.setArrayConnectionStatus(s, u.remote, u.status);
      return done;
    },
  ),
  "set-hardware-status": op(
    z.strictObject({
      name: z.string().min(1),
      status: z.string().min(1),
      details: z.string().nullable().optional(),
    }),
    (s, u) => {
      sc.setHardwareStatus(s, u.name, u.status, u.details ?? null);
      return done;
    },
  ),
  "run-policy": op(
    z.strictObject({ policy: z.string().min(1), rule: z.number().int().min(0).optional() }),
    (s, u) => ({
      snapshots: sc.runPolicy(s, u.policy, u.rule).map((snap) => snap.name),
    }),
  ),
  "eradicate-expired": op(z.strictObject({}), (s) => ({ eradicated: sc.eradicateExpired(s) })),
  // A question, not a change: may a client delete this path (legal holds decide)? Files are not REST objects.
  "path-deletion": op(
    z.strictObject({ fileSystem: z.string().min(1), path: z.string().startsWith("/") }),
    (s, q) => pathDeletion(s, q.fileSystem, q.path),
  ),
  // A question, not a change: may this client mount this file system, and how (the export policies decide).
  "mount-access": op(
    z
      .strictObject({
        fileSystem: z.string().min(1),
        ip: z.string().min(1).optional(),
        hostname: z.string().min(1).optional(),
      })
      .refine(
        (c) => c.ip !== undefined || c.hostname !== undefined,
        "give the client's ip, hostname or both",
      ),
    (s, q) =>
      mountAccess(s, q.fileSystem, {
        ...(q.ip !== undefined ? { ip: q.ip } : {}),
        ...(q.hostname !== undefined ? { hostname: q.hostname } : {}),
      }),
  ),
};

export type StateControlOp = keyof typeof STATE_OPS;
export type StateControlInput<K extends StateControlOp> = z.input<(typeof STATE_OPS)[K]["schema"]>;

export function isStateControlOp(name: string): name is StateControlOp {
  return Object.hasOwn(STATE_OPS, name);
}
