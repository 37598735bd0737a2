/**
 * What only Slack knows about a person: which of the configured user groups they are in, and whether they
 * are a guest or deactivated. Group members are cached, refreshed on a timer and on subteam events; user
 * records are cached briefly. On any doubt the answer is the less privileged one: a failed lookup means
 * "restricted", an unloaded group means "not a member".
 */
import type { IdentityPort } from "../core/context/pipeline-types.js";
import type { Logger } from "../logger.js";
import { type PacedSlackClient, slackErrorCode } from "./paced-client.js";

export interface IdentityOptions {
  /** User group ids (S…) the role bindings refer to. */
  groupIds: readonly string[];
  refreshMs: number;
  userInfoTtlMs: number;
  /** After a failed group load, how long before a lookup tries again. */
  retryMs?: number;
  /** users.info answers kept at most (default 10,000); the oldest go first. */
  maxUsers?: number;
  now?: () => number;
}

interface GroupState {
  members: Set<string>;
  loadedAt?: number;
  failedAt?: number;
  loading?: Promise<void>;
}

interface SlackUser {
  deleted?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_stranger?: boolean;
  is_bot?: boolean;
}

function restrictionOf(u: SlackUser): string | undefined {
  if (u.deleted) return "deactivated";
  if (u.is_ultra_restricted) return "single-channel guest";
  if (u.is_restricted) return "guest";
  if (u.is_stranger) return "external (not in this workspace)";
  if (u.is_bot) return "bot";
  return undefined;
}

export class SlackIdentity implements IdentityPort {
  private readonly groups = new Map<string, GroupState>();
  private readonly users = new Map<string, { restricted: boolean; at: number }>();
  /** Lookups in flight, by user; each ends (and leaves) when its users.info answers or fails. */
  private readonly lookups = new Map<string, Promise<boolean>>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: PacedSlackClient,
    private readonly opts: IdentityOptions,
    private readonly logger: Logger,
  ) {
    this.now = opts.now ?? Date.now;
    for (const id of opts.groupIds) this.groups.set(id, { members: new Set() });
  }

  /** A group's members, or undefined when Slack would not say (no scope, no plan, unreachable). */
  async membersOf(groupId: string): Promise<readonly string[] | undefined> {
    await this.ensureLoaded(groupId);
    const g = this.groups.get(groupId);
    return g?.loadedAt === undefined ? undefined : [...g.members];
  }

  async groupsOf(userId: string): Promise<readonly string[]> {
    await Promise.all([...this.groups.keys()].map((id) => this.ensureLoaded(id)));
    const out = [...this.groups].filter(([, g]) => g.members.has(userId)).map(([id]) => id);
    this.logger.debug({ userId, groups: out }, "user groups resolved");
    return out;
  }

  /** Users seen in the cache now (for tests of its bound). */
  get cachedUsers(): number {
    return this.users.size;
  }

  private remember(userId: string, restricted: boolean): void {
    // Re-inserting keeps the map oldest-first, so the bound drops the least recently looked-up users.
    this.users.delete(userId);
    this.users.set(userId, { restricted, at: this.now() });
    const max = this.opts.maxUsers ?? 10_000;
    for (const key of this.users.keys()) {
      if (this.users.size <= max) break;
      this.users.delete(key);
    }
  }

  isRestricted(userId: string): Promise<boolean> {
    const cached = this.users.get(userId);
    if (cached !== undefined && this.now() - cached.at < this.opts.userInfoTtlMs) {
      return Promise.resolve(cached.restricted);
    }
    // One users.info per person at a time: a double click or a burst of commands from someone new would
    // otherwise spend several of Slack's 100 users.info calls a minute (Tier 4) on the same answer.
    let lookup = this.lookups.get(userId);
    if (lookup === undefined) {
      lookup = this.lookUp(userId).finally(() => this.lookups.delete(userId));
      this.lookups.set(userId, lookup);
    }
    return lookup;
  }

  private async lookUp(userId: string): Promise<boolean> {
    try {
      const res = await this.client.call<{ user?: SlackUser }>("users.info", { user: userId });
      const reason = restrictionOf(res.user ?? {});
      if (reason !== undefined) this.logger.info({ userId, reason }, "user limited to viewer");
      this.remember(userId, reason !== undefined);
      return reason !== undefined;
    } catch (err) {
      this.logger.warn(
        { userId, slackError: slackErrorCode(err) },
        "users.info failed; treating user as restricted",
      );
      return true;
    }
  }

  /** A subteam_members_changed event: apply the delta (it is exact, unlike subteam_updated's list). */
  membersChanged(ev: { subteam_id: string; added_users?: string[]; removed_users?: string[] }): void {
    const g = this.groups.get(ev.subteam_id);
    if (g === undefined) return;
    if (g.loadedAt === undefined) {
      void this.refreshGroup(ev.subteam_id);
      return;
    }
    for (const u of ev.added_users ?? []) g.members.add(u);
    for (const u of ev.removed_users ?? []) g.members.delete(u);
    this.logger.info(
      { group: ev.subteam_id, added: ev.added_users ?? [], removed: ev.removed_users ?? [] },
      "user group membership changed",
    );
  }

  /** A subteam_updated event: its user list is cut at 500, so refetch the group. */
  async groupUpdated(groupId: string): Promise<void> {
    if (this.groups.has(groupId)) await this.refreshGroup(groupId);
  }

  async refreshAll(): Promise<void> {
    await Promise.all([...this.groups.keys()].map((id) => this.refreshGroup(id)));
  }

  start(): void {
    if (this.timer !== undefined || this.groups.size === 0) return;
    this.timer = setInterval(() => void this.refreshAll(), this.opts.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private ensureLoaded(groupId: string): Promise<void> {
    const g = this.groups.get(groupId);
    if (g === undefined || g.loadedAt !== undefined) return Promise.resolve();
    if (g.loading !== undefined) return g.loading;
    if (g.failedAt !== undefined && this.now() - g.failedAt < (this.opts.retryMs ?? 30_000))
      return Promise.resolve();
    return this.refreshGroup(groupId);
  }

  private refreshGroup(groupId: string): Promise<void> {
    const g = this.groups.get(groupId);
    if (g === undefined) return Promise.resolve();
    if (g.loading !== undefined) return g.loading;
    g.loading = (async () => {
      try {
        const res = await this.client.call<{ users?: string[] }>("usergroups.users.list", {
          usergroup: groupId,
        });
        const next = new Set(res.users ?? []);
        const added = [...next].filter((u) => !g.members.has(u));
        const removed = [...g.members].filter((u) => !next.has(u));
        g.members = next;
        g.loadedAt = this.now();
        g.failedAt = undefined;
        if (added.length > 0 || removed.length > 0) {
          this.logger.info({ group: groupId, added, removed, size: next.size }, "user group loaded");
        }
      } catch (err) {
        g.failedAt = this.now();
        const slackError = slackErrorCode(err);
        const hint =
          slackError === "plan_upgrade_required"
            ? "user groups need a paid Slack plan"
            : "keeping the last known members";
        this.logger.error({ group: groupId, slackError, err }, `could not load user group: ${hint}`);
      } finally {
        g.loading = undefined;
      }
    })();
    return g.loading;
  }
}
