/**
 * The TLS side of an array's sockets: the context they share (one per CA and key-share group, held only while
 * sockets use it), the group an array's TLS chose, and the session ticket it gave, copied out of Node's slab.
 */
import { createSecureContext, type SecureContext, type TLSSocket } from "node:tls";
import type { ResolvedArrayConfig } from "../config/arrays.js";

/**
 * What the connector hands tls.connect for one array: a TLS context built beforehand (holdContext). Without it
 * tls.connect builds a context per connection (parsing the CA again each time, and ~16 KiB more native memory per
 * socket, kept by malloc after the socket closes), and the faults of a large fleet reconnect often.
 */
export function tlsOptions(cfg: Pick<ResolvedArrayConfig, "insecure">, secureContext: SecureContext) {
  return { rejectUnauthorized: !cfg.insecure, secureContext };
}

/**
 * A copy of a small Buffer in memory of its own. Node cuts a session ticket (a few hundred bytes) from its shared
 * Buffer slab (8 KiB, heap-options.ts), and an array keeps its ticket for as long as it is configured: at a
 * thousand arrays, each held ticket kept a slab of its own, ~4 MiB of the 1,000-array load's external memory.
 */
export function ownCopy(b: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(b.length);
  b.copy(out);
  return out;
}

/**
 * OpenSSL's groups in its default order (3.5), by the names a socket reports its group with. Each is offered
 * with `?` (skipped where this OpenSSL lacks it), so the list never fails on an older build.
 */
const DEFAULT_GROUPS = [
  "X25519MLKEM768",
  "X25519",
  "prime256v1",
  "X448",
  "secp384r1",
  "secp521r1",
  "ffdhe2048",
  "ffdhe3072",
];

/**
 * The groups a client hello offers once the array's choice is known: all of OpenSSL's defaults, as before, but a
 * key share (`*`) for that group alone. By default a hello carries shares for two groups, X25519MLKEM768 and
 * X25519, and makes a key for each: at 1,000 arrays every command and every alert poll reconnects, and the
 * unused key costs CPU on each (measured with this OpenSSL 3.5, a resumed connect: ~50-130 µs less where the
 * array picks X25519MLKEM768, ~150 µs less where it picks X25519, as arrays without ML-KEM do). Nothing is weakened: the array still sees every group it saw, and an array that now prefers
 * another asks for it (a HelloRetryRequest, once) and that group is learned in turn.
 */
export function groupsSharing(group: string): string {
  return [`*${group}`, ...DEFAULT_GROUPS.filter((g) => g !== group).map((g) => `?${g}`)].join(":");
}

/** The key-exchange group a connected socket used, when it is one a hello can name (not finite-field DH). */
export function keyShareGroup(socket: Pick<TLSSocket, "getEphemeralKeyInfo">): string | undefined {
  const info = socket.getEphemeralKeyInfo() as { name?: unknown } | null;
  const name = info?.name;
  return typeof name === "string" && /^[A-Za-z0-9_-]{1,40}$/.test(name) ? name : undefined;
}

export interface HeldContext {
  readonly ctx: SecureContext;
  /** The group this context sends a key share for (undefined: OpenSSL's default shares). */
  readonly group: string | undefined;
  /** Gives the context back; calling it twice gives it back once. */
  release(): void;
}

function build(ca: string | undefined, group: string | undefined): { ctx: SecureContext; group?: string } {
  const caOpt = ca === undefined ? {} : { ca };
  if (group !== undefined) {
    try {
      return { ctx: createSecureContext({ ...caOpt, ecdhCurve: groupsSharing(group) }), group };
    } catch {
      // A group this OpenSSL cannot name in a list: the default hello still reaches the array.
    }
  }
  return { ctx: createSecureContext(caOpt) };
}

/**
 * One context per CA (and key-share group), shared by the arrays it signs, and held only while one of them has a
 * socket: a context with one CA costs ~25 KiB of native memory, and arrays with self-signed certificates (each its
 * own CA, as the load test's simulated arrays) held one each for good, 1,000 in a 1,000-array load. Rebuilt when
 * needed again (~0.2 ms, against a handshake's few); a fleet under one company CA shares one while any of its
 * arrays is busy.
 */
const contexts = new Map<string, { ctx: SecureContext; group: string | undefined; holders: number }>();
export function holdContext(ca: string | undefined, group?: string): HeldContext {
  const key = `${group ?? ""}\n${ca ?? ""}`;
  let entry = contexts.get(key);
  if (entry === undefined) {
    const built = build(ca, group);
    entry = { ctx: built.ctx, group: built.group, holders: 0 };
    contexts.set(key, entry);
  }
  entry.holders++;
  const held = entry;
  let released = false;
  return {
    ctx: held.ctx,
    group: held.group,
    release() {
      if (released) return;
      released = true;
      if (--held.holders === 0 && contexts.get(key) === held) contexts.delete(key);
    },
  };
}
