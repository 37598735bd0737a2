/**
 * Syslog for a SIEM: RFC 5424 messages over TCP or TLS, framed by octet counting (RFC 6587 §3.4.1: the byte
 * length, a space, the message), so a record's JSON may hold any character. One connection, opened when the
 * first batch goes out and again after it breaks; the queue (queue.ts) retries a batch that failed with
 * back-off, so a collector that restarts loses nothing that fits in the queue.
 */
import { isIP, connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { AuditRecord } from "../core/audit/audit.js";
import type { Transport } from "./queue.js";

/** facility 13 (log audit) × 8 + severity 6 (informational). */
const PRI = 13 * 8 + 6;

export interface SyslogTarget {
  host: string;
  port: number;
  /** Present for TLS: the CA's PEM (undefined = the system's CAs). */
  tls?: { ca?: string };
  appName: string;
  hostname: string;
  procId: string;
  connectTimeoutMs?: number;
}

/** RFC 5424 header fields: printable ASCII without spaces, "-" for nothing. */
function field(s: string, max: number): string {
  const clean = s.replace(/[^!-~]/g, "").slice(0, max);
  return clean === "" ? "-" : clean;
}

/** One record as an RFC 5424 message: its time, this host and process, MSGID "audit", the record's JSON. */
export function syslogMessage(
  rec: AuditRecord,
  t: Pick<SyslogTarget, "appName" | "hostname" | "procId">,
): string {
  return `<${PRI}>1 ${field(rec.at, 64)} ${field(t.hostname, 255)} ${field(t.appName, 48)} ${field(t.procId, 128)} audit - ${JSON.stringify(rec)}`;
}

/** The message framed for the stream: its length in bytes, a space, the message. */
export function octetFrame(msg: string): string {
  return `${Buffer.byteLength(msg, "utf8")} ${msg}`;
}

export function syslogTransport(t: SyslogTarget): Transport {
  let socket: Socket | undefined;
  let connecting: Promise<Socket> | undefined;

  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = t.tls
        ? tlsConnect({
            host: t.host,
            port: t.port,
            // SNI carries host names only (RFC 6066); an address is still checked against the certificate's SANs.
            ...(isIP(t.host) ? {} : { servername: t.host }),
            ...(t.tls.ca ? { ca: t.tls.ca } : {}),
          })
        : netConnect({ host: t.host, port: t.port });
      const ready = t.tls ? "secureConnect" : "connect";
      s.setTimeout(t.connectTimeoutMs ?? 5_000, () => s.destroy(new Error("syslog connect timed out")));
      s.once(ready, () => {
        s.setTimeout(0);
        s.removeListener("error", reject);
        // A broken connection is forgotten, so the next batch connects again.
        s.on("error", () => s.destroy());
        s.once("close", () => {
          if (socket === s) socket = undefined;
        });
        // The collector never answers; anything it sends is read and discarded so the socket never stalls.
        s.resume();
        resolve(s);
      });
      s.once("error", reject);
    });

  const ensure = async (): Promise<Socket> => {
    if (socket && !socket.destroyed) return socket;
    connecting ??= open().finally(() => {
      connecting = undefined;
    });
    socket = await connecting;
    return socket;
  };

  return {
    async send(lines) {
      const s = await ensure();
      const data = lines.map((l) => octetFrame(l)).join("");
      await new Promise<void>((resolve, reject) => {
        s.write(data, (err) => (err ? reject(err) : resolve()));
      });
    },
    async close() {
      const s = socket;
      socket = undefined;
      if (!s || s.destroyed) return;
      await new Promise<void>((resolve) => {
        s.once("close", () => resolve());
        s.end();
      });
    },
  };
}
