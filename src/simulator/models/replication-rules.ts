/**
 * The rules of array connections and replica links, in one place for the request handlers and the check of
 * seeded state (state-rules.ts): what a connection learns of its peer and which CA group it names, where a
 * bucket link's credentials take it (an array connection or an S3 target), and what a link needs to exist.
 */
import { findPeer } from "../peers.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import type { ArrayConnectionRec, BucketReplicaLinkRec, FileSystemReplicaLinkRec } from "./replication.js";

/** Where an array keeps the connection key it issued for peers to connect with. */
export const CONNECTION_KEY_PATH = "/array-connections/connection-key";

/** The certificate group an encrypted connection uses unless the request names one. */
export const DEFAULT_REPLICATION_CERTS = "_default_replication_certs";

/**
 * ArrayConnection.ca_certificate_group: an encrypted connection names the group of CA certificates it trusts
 * (the array's default group unless the request names one, which must exist); an unencrypted one none.
 */
export function caGroupFor(
  state: SimState,
  encrypted: boolean,
  named: { name: string } | null | undefined,
): ArrayConnectionRec["ca_certificate_group"] {
  if (!encrypted) return null;
  const name = named?.name ?? DEFAULT_REPLICATION_CERTS;
  const group = state.generic.get("/certificate-groups")?.items.get(name);
  if (!group) throw badRequest(`Certificate group '${name}' does not exist.`, name);
  return { name, id: String(group["id"] ?? ""), resource_type: "certificate-groups" };
}

/**
 * The remote end as the connecting array learns it: a simulated array on that address answers with its own
 * name and id, and only with the connection key it issued; elsewhere (an address no simulator answers) the
 * name the request gives, else one made from the address. Only arrays of this process are asked here;
 * learnRemoteAnywhere (peer-wire.ts) asks one in another process over the wire.
 */
export function learnRemote(
  state: SimState,
  address: string,
  key: string,
  named: string | undefined,
): ArrayConnectionRec["remote"] {
  const peer = findPeer(address);
  if (peer === undefined) return unknownRemote(state, address, named);
  if (peer === state)
    throw badRequest(`${address} is this array; an array cannot connect to itself.`, address);
  return checkedRemote(address, peerIdentity(peer, key, address), named);
}

/** An address no simulated array answers on: the name the request gives, else one made from the address. */
export function unknownRemote(state: SimState, address: string, named: string | undefined) {
  return { id: state.newId(), name: named ?? `remote-${address.replace(/[^A-Za-z0-9]/g, "-")}` };
}

/** What an array tells a peer that connects with `key`: its name and id, if it issued that key (else a 400). */
export function peerIdentity(peer: SimState, key: string, address: string): { id: string; name: string } {
  const issued = peer.generic.get(CONNECTION_KEY_PATH)?.items.get("key");
  if (!issued || issued["connection_key"] !== key || Number(issued["expires"]) <= peer.clock()) {
    throw badRequest(
      `The connection key is not one the array at ${address} issued (or it expired); create a new key there.`,
      "connection_key",
    );
  }
  return { id: peer.array.id, name: peer.array.name };
}

/** The peer as it answered, unless the request named another array. */
export function checkedRemote(
  address: string,
  peer: { id: string; name: string },
  named: string | undefined,
) {
  if (named !== undefined && named !== peer.name)
    throw badRequest(`The array at ${address} is '${peer.name}', not '${named}'.`, named);
  return { id: peer.id, name: peer.name };
}

/** A stored connection as its creation met the rules: a named remote, and its CA group if encrypted. */
export function checkConnectionStands(state: SimState, c: ArrayConnectionRec): void {
  if (c.remote.name === "") throw badRequest("An array connection names no remote array.", c.id);
  const group = caGroupFor(state, c.encrypted, c.ca_certificate_group);
  if (group?.name !== c.ca_certificate_group?.name)
    throw badRequest(
      `The connection to '${c.remote.name}' should name certificate group ${group ? `'${group.name}'` : "none"}.`,
      c.remote.name,
    );
}

export interface RemoteRef {
  id: string;
  name: string;
  resource_type: "array-connections" | "targets";
}

/**
 * The far end of a link by the id the link keeps: an array connection, or (bucket links, 1.9+) an S3 target.
 * Undefined when neither exists any more.
 */
export function linkRemote(state: SimState, remoteId: string): RemoteRef | undefined {
  const c = state.arrayConnections.get(remoteId);
  if (c) return { id: c.remote.id, name: c.remote.name, resource_type: "array-connections" };
  for (const [name, t] of state.generic.get("/targets")?.items ?? []) {
    if (t["id"] === remoteId) return { id: remoteId, name, resource_type: "targets" };
  }
  return undefined;
}

/**
 * Where a bucket link with these credentials replicates to: the array connection or the S3 target (1.9+) the
 * credentials belong to. `key` is what the link keeps (a connection's own id, a target's id).
 */
export function credentialRemote(
  state: SimState,
  credName: string,
  cred: Record<string, unknown>,
): RemoteRef & { key: string } {
  const named = cred["remote"] as { name?: string; resource_type?: string } | undefined;
  const remoteName = named?.name ?? credName.split("/")[0] ?? "";
  if (named?.resource_type === "targets") {
    const target = state.generic.get("/targets")?.items.get(remoteName);
    if (!target)
      throw badRequest(`There is no target '${remoteName}' for credentials '${credName}'.`, credName);
    const id = String(target["id"] ?? "");
    return { key: id, id, name: remoteName, resource_type: "targets" };
  }
  const conn = [...state.arrayConnections.values()].find((c) => c.remote.name === remoteName);
  if (!conn)
    throw badRequest(
      `There is no array connection to '${remoteName}' for credentials '${credName}'.`,
      credName,
    );
  return { key: conn.id, ...(linkRemote(state, conn.id) as RemoteRef) };
}

/**
 * A stored bucket link as its creation met the rules: its bucket exists; an outbound link's credentials exist
 * and belong to the remote it replicates to (an array connection or an S3 target); an inbound one's remote is
 * an array connection.
 */
export function checkBucketLinkStands(state: SimState, l: BucketReplicaLinkRec): void {
  if (!state.buckets.has(l.localBucket)) throw badRequest(`Bucket '${l.localBucket}' does not exist.`, l.id);
  if (l.direction === "inbound") {
    if (!state.arrayConnections.has(l.remoteId))
      throw badRequest(`The inbound link of '${l.localBucket}' names no array connection.`, l.id);
    return;
  }
  const cred = state.generic.get("/object-store-remote-credentials")?.items.get(l.remoteCredentials);
  if (!cred) throw badRequest(`Remote credentials '${l.remoteCredentials}' do not exist.`, l.id);
  if (credentialRemote(state, l.remoteCredentials, cred).key !== l.remoteId)
    throw badRequest(
      `Credentials '${l.remoteCredentials}' belong to another remote than the link of '${l.localBucket}'.`,
      l.id,
    );
}

/**
 * A stored link as its creation met the rules: its file system, its array connection and its policies exist
 * (its file system may since have been destroyed: the link goes at eradication), one link per file system and
 * remote.
 */
export function checkFsLinkStands(state: SimState, l: FileSystemReplicaLinkRec): void {
  if (!state.fileSystems.has(l.localFileSystem))
    throw badRequest(`File system '${l.localFileSystem}' does not exist.`, l.id);
  const conn = state.arrayConnections.get(l.remoteId);
  if (!conn) throw badRequest(`The link of '${l.localFileSystem}' names no array connection.`, l.id);
  for (const p of l.policies)
    if (!state.policies.has(p)) throw badRequest(`Policy '${p}' does not exist.`, l.id);
  checkOneFsLinkPerRemote(state, l.localFileSystem, conn, l);
}

/** A file system replicates to one array connection once (a second link to the same remote is refused). */
export function checkOneFsLinkPerRemote(
  state: SimState,
  fileSystem: string,
  conn: ArrayConnectionRec,
  self?: FileSystemReplicaLinkRec,
): void {
  for (const other of state.fileSystemReplicaLinks.values()) {
    if (other !== self && other.localFileSystem === fileSystem && other.remoteId === conn.id)
      throw badRequest(
        `File system '${fileSystem}' already replicates to '${conn.remote.name}'.`,
        fileSystem,
      );
  }
}
