/**
 * The simulated array's state run through the array's rules: every stored object is checked by the rule the
 * request that made it would have met (the same functions the handlers call), so a scenario cannot seed a state
 * an array would refuse. `createState` runs it after every scenario; test/simulator/state-rules.test.ts runs it
 * over every scenario and over states broken on purpose.
 */
import { checkFileSystemStands } from "./models/file-system-rules.js";
import {
  checkBucketLinkStands,
  checkConnectionStands,
  checkFsLinkStands,
} from "./models/replication-rules.js";
import { checkSubnet, placeAddress } from "./resources/network.js";
import { checkCredentialStands } from "./resources/targets.js";
import { checkTransferStands, STORED_TRANSFERS } from "./resources/transfers.js";
import type { SimState } from "./state.js";
import { badRequest, SimHttpError } from "./types.js";

type Rule = () => void;

function exists(present: boolean, what: string): void {
  if (!present) throw badRequest(`${what} does not exist.`);
}

/** Every stored object with the rule it must pass, named for the report. */
function* rulesOf(state: SimState): Generator<[string, Rule]> {
  for (const fs of state.fileSystems.values())
    yield [`file system '${fs.name}'`, () => checkFileSystemStands(state, fs)];
  for (const s of state.snapshots.values())
    yield [
      `snapshot '${s.name}'`,
      () => exists(state.fileSystems.has(s.source), `File system '${s.source}'`),
    ];
  for (const p of state.policies.values())
    for (const m of p.members)
      yield [`policy '${p.name}'`, () => exists(state.fileSystems.has(m), `Member file system '${m}'`)];
  for (const [kind, tables] of [
    ["user", state.users],
    ["group", state.groups],
  ] as const)
    for (const q of tables.quotas.values())
      yield [
        `${kind} quota ${q.subject} on '${q.fileSystem}'`,
        () => exists(state.fileSystems.has(q.fileSystem), `File system '${q.fileSystem}'`),
      ];
  for (const b of state.buckets.values())
    yield [`bucket '${b.name}'`, () => exists(state.accounts.has(b.account), `Account '${b.account}'`)];
  for (const u of state.objectUsers.values())
    yield [
      `object store user '${u.name}'`,
      () => exists(state.accounts.has(u.account), `Account '${u.account}'`),
    ];
  for (const c of state.arrayConnections.values())
    yield [`array connection to '${c.remote.name}'`, () => checkConnectionStands(state, c)];
  for (const l of state.fileSystemReplicaLinks.values())
    yield [`replica link of '${l.localFileSystem}'`, () => checkFsLinkStands(state, l)];
  for (const l of state.bucketReplicaLinks.values())
    yield [`replica link of bucket '${l.localBucket}'`, () => checkBucketLinkStands(state, l)];
  for (const cred of state.generic.get("/object-store-remote-credentials")?.items.values() ?? [])
    yield [`remote credentials '${String(cred["name"])}'`, () => checkCredentialStands(state, cred)];
  for (const t of state.generic.get(STORED_TRANSFERS)?.items.values() ?? [])
    yield [`transfer '${String(t["name"])}'`, () => checkTransferStands(t)];
  for (const s of state.network.subnets.values()) yield [`subnet '${s.name}'`, () => checkSubnet(state, s)];
  for (const i of state.network.interfaces.values())
    yield [
      `network interface '${i.name}'`,
      () => {
        const subnet = placeAddress(state, i.address, i.name);
        if (subnet.name !== i.subnet)
          throw badRequest(`Its address ${i.address} is in subnet '${subnet.name}', not '${i.subnet}'.`);
      },
    ];
}

/** What the rules refuse in `state`, one line per refused object; empty when the state is one an array could be in. */
export function refusedObjects(state: SimState): string[] {
  const out: string[] = [];
  for (const [what, rule] of rulesOf(state)) {
    try {
      rule();
    } catch (err) {
      if (!(err instanceof SimHttpError)) throw err;
      out.push(`${what}: ${err.message}`);
    }
  }
  return out;
}
