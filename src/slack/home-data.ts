/**
 * Fills the App Home from the bot's own parts: the caller's role per array (the access resolver), array
 * health (the pool), open approval requests the caller may decide (the pending store), and the commands
 * their role allows (the registry).
 */
import type { AccessResolver } from "../core/access/authz.js";
import { type Role, roleAtLeast } from "../core/access/roles.js";
import type { PendingRecord, PendingStore } from "../core/approvals/pending-store.js";
import { areaIndex, REST2_HEADING, rest2Line } from "../core/catalogue/help.js";
import type { CommandEntry } from "../core/catalogue/registry.js";
import { type FleetOptions, readFleet } from "../core/requests/fleet.js";
import { guardClient } from "../core/requests/request-guard.js";
import { unusableDetail } from "../flashblade/health-words.js";
import type { ArrayClient, ArrayHealth } from "../flashblade/types.js";
import type { HomeData, HomePending, HomePort } from "./home.js";

export interface HomeArraySource {
  name: string;
  tags: readonly string[];
  reachable: boolean;
  version?: string;
  status?: ArrayHealth["status"];
  refused?: { setting: string };
  lastError?: { message: string };
}

export interface HomeSources {
  access: AccessResolver;
  arrays: () => readonly HomeArraySource[];
  pending?: PendingStore;
  commands?: () => readonly CommandEntry[];
  /**
   * The array clients the fleet view reads through (the pool's); each is guarded by the viewer's role on its
   * array, like any command's. Absent: no fleet section.
   */
  fleet?: { clientFor(array: string): ArrayClient; options: FleetOptions };
}

function canDecide(rec: PendingRecord, userId: string, role: Role | undefined): boolean {
  return (
    rec.kind === "request" &&
    rec.policy === "approve" &&
    rec.status === "pending" &&
    rec.requester.userId !== userId &&
    !rec.approvals.some((a) => a.userId === userId) &&
    roleAtLeast(role, rec.approverRole)
  );
}

export function createHomePort(src: HomeSources): HomePort {
  return {
    async load(userId): Promise<HomeData> {
      const arrays = src.arrays();
      const roles = new Map<string, Role | undefined>();
      for (const a of arrays) roles.set(a.name, await src.access.roleOn(userId, a));
      const best = await src.access.bestRole(userId, arrays);

      const pending: HomePending[] = [];
      for (const rec of (await src.pending?.listOpen()) ?? []) {
        if (!canDecide(rec, userId, roles.get(rec.array))) continue;
        pending.push({
          id: rec.id,
          summary: rec.display.title,
          requester: rec.requester.displayName ?? rec.requester.userId,
          channelId: rec.channelId,
          expiresAt: new Date(rec.expiresAt),
          approvals: rec.approvals.length,
          required: rec.approvalsRequired,
        });
      }

      // The same index as `/array help`: per area, the resources and the verbs this person may run.
      const commands = src.commands?.() ?? [];
      const help: { usage: string; summary: string }[] = areaIndex(commands, best).map((a) => ({
        usage: a.area,
        summary: a.resources
          .map((r) => (a.resources.length <= 6 ? `${r.name} (${r.verbs.join(", ")})` : r.name))
          .join(", "),
      }));
      // The first-class 2.x-only families, as the help overview names them (the areas keep to every array's).
      const rest2 = rest2Line(commands, best);
      if (rest2 !== undefined) help.push({ usage: REST2_HEADING, summary: rest2 });

      // The fleet, read as this person: only arrays they have a role on, every request through the policy.
      const readable = arrays.filter((a) => roles.get(a.name) !== undefined);
      const fl = src.fleet;
      const fleet = fl
        ? await readFleet(
            readable.map((a) => guardClient(fl.clientFor(a.name), async () => roles.get(a.name))),
            fl.options,
          )
        : undefined;

      return {
        ...(fleet ? { fleet } : {}),
        role: best ?? "none yet: ask an admin to add you or one of your user groups",
        arrays: arrays
          .filter((a) => roles.get(a.name) !== undefined)
          .map((a) => {
            const detail = a.reachable ? (a.version ? `REST ${a.version}` : undefined) : unusableDetail(a);
            return detail === undefined
              ? { name: a.name, reachable: a.reachable }
              : { name: a.name, reachable: a.reachable, detail };
          }),
        pending,
        help,
      };
    },
  };
}
