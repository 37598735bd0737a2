/**
 * Array connections between simulated arrays in different processes: the connecting array asks the address it
 * was given, over HTTPS, who answers there for this connection key (as a real array authenticates to its peer's
 * management address with the key the peer issued). The peer answers on PEER_PATH, outside /api and outside
 * the optional control interface: a real array always takes connections.
 */
import { Agent, request } from "undici";
import { type ApiResponse, errorResponse } from "./api-response.js";
import type { ArrayConnectionRec } from "./models/replication.js";
import { checkedRemote, learnRemote, peerIdentity, unknownRemote } from "./models/replication-rules.js";
import { findPeer } from "./peers.js";
import type { SimState } from "./state.js";
import { badRequest, SimHttpError } from "./types.js";

export const PEER_PATH = "/_peer/connect";

/** How long a connecting array waits for the address it was given before treating it as no simulator. */
const PEER_TIMEOUT_MS = 5_000;

/** This array's side: `POST PEER_PATH` with `{connection_key}` → `{name, id}`, or 400 for a key it did not issue. */
export function answerPeer(state: SimState, method: string, body: string): ApiResponse {
  if (method !== "POST") return errorResponse(405, `Use POST on ${PEER_PATH}.`, PEER_PATH);
  let key: unknown;
  try {
    key = (JSON.parse(body) as { connection_key?: unknown }).connection_key;
  } catch {
    key = undefined;
  }
  if (typeof key !== "string" || key === "")
    return errorResponse(400, 'Send {"connection_key": …}.', "connection_key");
  try {
    return { status: 200, body: peerIdentity(state, key, "this address") };
  } catch (err) {
    if (err instanceof SimHttpError) return errorResponse(err.status, err.message, err.context ?? PEER_PATH);
    throw err;
  }
}

/** `host:port` or `https://host:port[/]` → the peer's base URL; undefined for an address without a port. */
function peerUrl(address: string): string | undefined {
  const m = /^(?:https:\/\/)?(\[[^\]]+\]|[^/:]+):(\d+)\/*$/.exec(address);
  return m ? `https://${m[1]}:${m[2]}` : undefined;
}

type Remote = ArrayConnectionRec["remote"];

/**
 * The remote end of a new connection, wherever the simulated peer runs: this process first, then the address
 * over the wire (an address with a port), else the name the request gives (learnRemote's rules). Answered at
 * once unless it goes over the wire.
 */
export function learnRemoteAnywhere(
  state: SimState,
  address: string,
  key: string,
  named: string | undefined,
): Remote | Promise<Remote> {
  // This array's own addresses are registered in this process: findPeer catches a connection to itself.
  const url = findPeer(address) === undefined ? peerUrl(address) : undefined;
  if (url === undefined) return learnRemote(state, address, key, named);
  return overTheWire(state, url, address, key, named);
}

async function overTheWire(
  state: SimState,
  url: string,
  address: string,
  key: string,
  named: string | undefined,
): Promise<Remote> {
  // A simulator's certificate is its own, self-signed: no CA here knows it. The key is what the peer checks.
  const agent = new Agent({ connect: { rejectUnauthorized: false, timeout: PEER_TIMEOUT_MS } });
  try {
    const res = await request(`${url}${PEER_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ connection_key: key }),
      dispatcher: agent,
      headersTimeout: PEER_TIMEOUT_MS,
      bodyTimeout: PEER_TIMEOUT_MS,
    });
    const text = await res.body.text();
    if (res.statusCode === 404) return unknownRemote(state, address, named);
    const answer = JSON.parse(text) as { id?: string; name?: string; errors?: { message?: string }[] };
    if (res.statusCode !== 200 || typeof answer.name !== "string" || typeof answer.id !== "string") {
      const why = answer.errors?.[0]?.message?.replace("this address", address);
      throw badRequest(why ?? `The array at ${address} refused the connection.`, "connection_key");
    }
    return checkedRemote(address, { id: answer.id, name: answer.name }, named);
  } catch (err) {
    if (err instanceof SimHttpError) throw err;
    // Nothing answers there (or not as a simulator): an address outside the simulated world.
    return unknownRemote(state, address, named);
  } finally {
    await agent.close();
  }
}
