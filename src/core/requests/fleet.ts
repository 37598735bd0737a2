/**
 * The fleet at a glance, per array: capacity now and when the forecast reaches 80, 90 and 100 %, open alerts by
 * severity, replica links that are unhealthy or paused, certificates ending within 30 days, the array's own
 * maintenance windows in force (REST 2.x). Read through the clients it
 * is handed (the App Home hands clients guarded by the viewer's role), each array within one deadline, so an
 * array that does not answer is one line saying so, never a blank page.
 */
import { isUserFacing } from "../../errors.js";
import { alertSchema, fileSystemReplicaLinkSchema } from "../../flashblade/schemas.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { atLeast, generationOf } from "../../rest-spec/versions.js";
import { capacityForecast } from "../forecast/capacity.js";

const DAY = 86_400_000;

export interface FleetArray {
  array: string;
  /** Why nothing could be read (not answering, no role); the other fields are then absent. */
  error?: string;
  capacity?: {
    total: number;
    used: number;
    /** Days until 80, 90 and 100 % by the forecast's best estimate; 0 when reached, undefined when not growing. */
    daysTo: { level: number; days?: number }[];
    /** Why there is no forecast (too little history), when there is none. */
    noForecast?: string;
  };
  alerts?: { critical: number; warning: number; info: number };
  /**
   * File-system replica links: how many, how many the array calls unhealthy, how many are paused. Lag against
   * each link's policy interval is `replication status`'s to judge; a glance does not guess it.
   */
  links?: { total: number; unhealthy: number; paused: number };
  /** Certificates ending within 30 days (or ended), soonest first. */
  certificates?: { name: string; daysLeft: number }[];
  /** The array's own maintenance windows in force (REST 2.16+), and how long until each ends. */
  maintenance?: { name: string; endsInMs: number }[];
}

export interface FleetOptions {
  now: () => number;
  /** Each array's reads must finish within this, or the array reads as not answering. */
  deadlineMs: number;
  /** History the forecast fits. */
  windowMs?: number;
  /** Certificates ending within this many days are shown. */
  certificateDays?: number;
}

async function readOne(client: ArrayClient, o: FleetOptions): Promise<FleetArray> {
  const now = o.now();
  const [forecast, alerts, links, certs, windows] = await Promise.all([
    capacityForecast(client, { windowMs: o.windowMs ?? 30 * DAY, now: o.now }),
    client.get("/alerts", { query: { filter: "state='open'" }, schema: alertSchema }),
    client.get("/file-system-replica-links", { schema: fileSystemReplicaLinkSchema }).catch(() => undefined),
    client.get<Record<string, unknown>>("/certificates", {}).catch(() => undefined),
    windowsInForce(client, now).catch(() => undefined),
  ]);
  const bySeverity = { critical: 0, warning: 0, info: 0 };
  for (const a of alerts.items) {
    const s = a.severity as keyof typeof bySeverity | undefined;
    if (s !== undefined && Object.hasOwn(bySeverity, s)) bySeverity[s]++;
  }
  const out: FleetArray = {
    array: client.name,
    capacity: {
      total: forecast.capacity,
      used: forecast.usedNow,
      daysTo: forecast.crossings.map((c) => ({
        level: c.level,
        ...(c.reached ? { days: 0 } : c.at === undefined ? {} : { days: Math.max(0, (c.at - now) / DAY) }),
      })),
      ...(forecast.reason ? { noForecast: forecast.reason } : {}),
    },
    alerts: bySeverity,
  };
  if (links) {
    const count = (status: string) => links.items.filter((l) => l.status === status).length;
    out.links = { total: links.items.length, unhealthy: count("unhealthy"), paused: count("paused") };
  }
  if (certs) {
    const within = (o.certificateDays ?? 30) * DAY;
    out.certificates = certs.items
      .flatMap((c) => {
        const end = Number(c["valid_to"]);
        return typeof c["name"] === "string" && end > 0 && end - now < within
          ? [{ name: c["name"], daysLeft: Math.floor((end - now) / DAY) }]
          : [];
      })
      .sort((a, b) => a.daysLeft - b.daysLeft);
  }
  if (windows?.length) out.maintenance = windows;
  return out;
}

/** The array's maintenance windows in force: a family only REST 2.16+ has, so no call on other arrays. */
async function windowsInForce(client: ArrayClient, now: number): Promise<FleetArray["maintenance"]> {
  const version = await client.version();
  if (generationOf(version) !== 2 || !atLeast(version, "2.16")) return [];
  const page = await client.get<Record<string, unknown>>("/maintenance-windows", {});
  return page.items.flatMap((w) => {
    const [name, start, end] = [w["name"], Number(w["created"] ?? 0), Number(w["expires"])];
    return typeof name === "string" && start <= now && now < end ? [{ name, endsInMs: end - now }] : [];
  });
}

/** Every array read side by side; each that fails or outlasts the deadline is a line with the reason. */
export async function readFleet(clients: readonly ArrayClient[], o: FleetOptions): Promise<FleetArray[]> {
  return Promise.all(
    clients.map(async (client) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<FleetArray>((resolve) => {
        timer = setTimeout(
          () =>
            resolve({ array: client.name, error: `no answer within ${Math.round(o.deadlineMs / 1000)} s` }),
          o.deadlineMs,
        );
        timer.unref();
      });
      try {
        return await Promise.race([
          readOne(client, o).catch(
            (err: unknown): FleetArray => ({
              array: client.name,
              // The bot's own words only: an internal error's text stays in the log.
              error: isUserFacing(err) ? err.message : "could not be read; the details are in the bot's log",
            }),
          ),
          late,
        ]);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
