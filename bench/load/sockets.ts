/**
 * What the bot's process holds outside the V8 heap, read from /proc (Linux; elsewhere undefined): its sockets by
 * peer (the driver's connections to its HTTP receiver, its connections to the fake Slack, to the arrays), and its
 * resident memory split into anonymous (heap, malloc, stacks) and file-backed (the node binary's code).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface SocketCensus {
  /** Connections accepted by the bot's HTTP receiver (Slack's deliveries: here the driver's). */
  inbound: number;
  /** Connections to the fake Slack (Web API and response_url). */
  slack: number;
  /** Connections to the arrays. */
  arrays: number;
  other: number;
}

function tcpTable(): Map<string, { local: number; remote: number; listen: boolean }> {
  const out = new Map<string, { local: number; remote: number; listen: boolean }>();
  for (const file of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const port = (addr: string | undefined) => Number.parseInt(addr?.split(":").at(-1) ?? "0", 16);
      out.set(f[9] ?? "", { local: port(f[1]), remote: port(f[2]), listen: f[3] === "0A" });
    }
  }
  return out;
}

/** This process's TCP sockets by peer: `ownPort` is the receiver's, `slackPort` the fake Slack's. */
export function socketCensus(ownPort: number, slackPort: number): SocketCensus | undefined {
  let fds: string[];
  try {
    fds = readdirSync("/proc/self/fd");
  } catch {
    return undefined;
  }
  const table = tcpTable();
  const census: SocketCensus = { inbound: 0, slack: 0, arrays: 0, other: 0 };
  for (const fd of fds) {
    let link: string;
    try {
      link = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    const s = inode === undefined ? undefined : table.get(inode);
    if (s === undefined || s.listen) continue;
    if (s.local === ownPort) census.inbound++;
    else if (s.remote === slackPort) census.slack++;
    else if (s.remote !== 0) census.arrays++;
    else census.other++;
  }
  return census;
}

/** Resident memory split: anonymous (V8 heap, malloc, stacks) and file-backed (code), MiB. */
export function rssSplit(): { anonMiB: number; fileMiB: number } | undefined {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { anonMiB: kib("RssAnon") / 1024, fileMiB: kib("RssFile") / 1024 };
  } catch {
    return undefined;
  }
}
