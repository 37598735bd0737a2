/**
 * Drains the outbox: posts new cards, updates changed ones in place and adds their thread lines, recording
 * each Slack message ts as soon as Slack returns it. Everything waiting is in the store, so a restart resumes
 * where it stopped, and a failed call (429 after the client's own retries, 5xx, network) is retried later
 * with backoff instead of being lost. The one gap: a crash between Slack accepting a post and the ts being
 * committed re-posts that card once after restart (Slack has no idempotency key for chat.postMessage).
 */
import type { Logger } from "../logger.js";
import type { Store } from "../store/types.js";
import { familyKey, isClosed } from "./alert-model.js";
import type { Mutex } from "./mutex.js";
import { type RenderEnv, renderCard } from "./render.js";
import { cardArray, familyStateKey, NS, type OutboxEntry, type Snooze, UnitOfWork } from "./repo.js";
import type { AlertChat, AlertRecord, Card, Clock, TimerHandle } from "./types.js";

/** Slack errors that retrying cannot fix: the card is marked failed and left alone. */
const PERMANENT = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "invalid_blocks",
  "invalid_arguments",
  "msg_too_long",
  "message_not_found",
  "cant_update_message",
  "edit_window_closed",
  "restricted_action",
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "missing_scope",
]);

const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 5 * 60_000;

export interface NotifierStats {
  posts: number;
  updates: number;
  threadLines: number;
  /** Thread messages those lines went out in (lines waiting together share one). */
  threadPosts: number;
  /** Calls that failed and were scheduled again. */
  retries: number;
  /** Cards that resolved while held (quiet hours, maintenance) and so were never posted. */
  dropped: number;
  /** Cards Slack refused for good. */
  failed: number;
}

export interface NotifierDeps {
  store: Store;
  chat: AlertChat;
  clock: Clock;
  logger: Logger;
  lock: Mutex;
  /** With replicas: whether this replica posts for `array` now (it holds the array's polling lease). */
  owns?: (array: string) => boolean;
  /** With replicas: asks the store, right before a Slack call, that the lease is still this replica's. */
  confirm?: (array: string) => Promise<boolean>;
  env: () => Omit<RenderEnv, "now" | "snoozedUntil">;
}

type OutboxRow = OutboxEntry & { attempts?: number };

function slackCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === "string" ? data.error : undefined;
}

function retryAfterMs(err: unknown): number | undefined {
  const s = (err as { retryAfter?: unknown } | undefined)?.retryAfter;
  return typeof s === "number" && s > 0 ? s * 1000 : undefined;
}

export class Notifier {
  readonly stats: NotifierStats = {
    posts: 0,
    updates: 0,
    threadLines: 0,
    threadPosts: 0,
    retries: 0,
    dropped: 0,
    failed: 0,
  };
  private running: Promise<void> | undefined;
  private again = false;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly d: NotifierDeps) {}

  /** Starts a drain, or asks the running one to look again when it finishes. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves when no drain is running (tests and the replay wait on this, never on time). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.d.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.drainDue();
      } catch (err) {
        this.d.logger.error({ err }, "alert notifier pass failed");
      }
    } while (this.again && !this.stopped);
  }

  private async drainDue(): Promise<void> {
    for (;;) {
      const now = this.d.clock.now();
      const owns = this.d.owns;
      const all = await this.d.store.list<OutboxRow>(NS.outbox);
      // With replicas, cards of arrays another replica holds are that replica's to post (the outbox is shared).
      const entries = owns ? all.filter((e) => owns(cardArray(e.key) ?? "")) : all;
      const due = entries.filter((e) => e.value.due <= now).sort((a, b) => a.value.due - b.value.due);
      if (due.length === 0 || this.stopped) {
        this.schedule(entries.map((e) => e.value.due));
        return;
      }
      for (const e of due) {
        if (this.stopped) return;
        await this.sync(e.key, e.value);
      }
    }
  }

  private schedule(dues: number[]): void {
    if (this.timer) this.d.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (dues.length === 0 || this.stopped) return;
    const wait = Math.max(0, Math.min(...dues) - this.d.clock.now());
    this.timer = this.d.clock.setTimer(() => {
      this.timer = undefined;
      this.kick();
    }, wait);
  }

  private async env(card: Card, members: readonly AlertRecord[]): Promise<RenderEnv> {
    const now = this.d.clock.now();
    const env: RenderEnv = { ...this.d.env(), now };
    const families =
      card.kind === "alert" && card.family
        ? [card.family]
        : card.kind === "summary"
          ? [...new Set(members.map((m) => familyKey(m.array, m)))]
          : [];
    if (families.length === 0) return env;
    const keys = families.map((f) => familyStateKey(card.channel, f));
    const snoozes = await this.d.store.getMany<Snooze>(NS.snooze, keys);
    // A summary counts as snoozed only when every family on it is.
    if (snoozes.size === keys.length) {
      const until = Math.min(...[...snoozes.values()].map((x) => x.until));
      if (until > now) env.snoozedUntil = until;
    }
    return env;
  }

  /** Brings one card's Slack message up to date; failures reschedule it. */
  private async sync(id: string, entry: OutboxRow): Promise<void> {
    const { store, chat, lock } = this.d;
    const card = await store.get<Card>(NS.card, id);
    if (!card || card.dropped || card.failed) {
      await lock.run(() => store.write([{ op: "delete", ns: NS.outbox, key: id }]));
      return;
    }
    const members = [...(await store.getMany<AlertRecord>(NS.alert, card.members)).values()];
    const version = card.version;
    // A replica that paused past its lease must not post: the successor posts this card from the shared outbox.
    if (this.d.confirm && !(await this.d.confirm(card.array))) return;
    try {
      if (!card.ref) {
        if (card.holdUntil !== undefined && isResolved(card, members)) {
          await this.commit(id, (c) => {
            c.dropped = true;
          });
          this.stats.dropped += 1;
          return;
        }
        const ref = await chat.post(card.channel, renderCard(card, members, await this.env(card, members)));
        this.stats.posts += 1;
        const at = this.d.clock.now();
        await this.commit(id, (c) => {
          c.ref = { channelId: ref.channelId, ts: ref.ts };
          c.syncedVersion = version;
          c.syncedAt = at;
        });
        return;
      }
      if (card.syncedVersion < version) {
        await chat.update(card.ref, renderCard(card, members, await this.env(card, members)));
        this.stats.updates += 1;
        const at = this.d.clock.now();
        await this.commit(id, (c) => {
          c.syncedVersion = Math.max(c.syncedVersion, version);
          c.syncedAt = at;
        });
      }
      for (const lines of threadPosts(card.thread)) {
        await chat.postInThread(card.ref, lines.map((l) => l.text).join("\n"));
        this.stats.threadLines += lines.length;
        this.stats.threadPosts += 1;
        const sent = new Set(lines.map((l) => l.id));
        await this.commit(id, (c) => {
          c.thread = c.thread.filter((l) => !sent.has(l.id));
        });
      }
    } catch (err) {
      await this.failed(id, card, entry, err);
    }
  }

  /** Applies `change` to the stored card and clears its outbox entry when nothing more is waiting. */
  private commit(id: string, change: (c: Card) => void): Promise<void> {
    return this.d.lock.run(async () => {
      const uow = new UnitOfWork(this.d.store);
      const c = await uow.card(id);
      if (!c) return;
      change(c);
      uow.put(NS.card, id, c);
      const done =
        c.dropped === true ||
        c.failed !== undefined ||
        (c.ref !== undefined && c.syncedVersion >= c.version && c.thread.length === 0);
      if (done) uow.delete(NS.outbox, id);
      await uow.commit();
    });
  }

  private async failed(id: string, card: Card, entry: OutboxRow, err: unknown): Promise<void> {
    const code = slackCode(err);
    const log = this.d.logger.child({ card: id, channel: card.channel, array: card.array });
    if (code !== undefined && PERMANENT.has(code)) {
      log.error({ err, slackError: code }, "Slack refused an alert message for good; it will not be retried");
      this.stats.failed += 1;
      await this.commit(id, (c) => {
        c.failed = code;
      });
      return;
    }
    const attempts = (entry.attempts ?? 0) + 1;
    const wait = retryAfterMs(err) ?? Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempts - 1));
    log.warn({ err, attempts, retryInMs: wait }, "alert message not delivered yet; will retry");
    this.stats.retries += 1;
    const due = this.d.clock.now() + wait;
    await this.d.lock.run(async () => {
      // Only reschedule if the card is still waiting (a click may have finished it meanwhile).
      const cur = await this.d.store.get<OutboxRow>(NS.outbox, id);
      if (cur) await this.d.store.write([{ op: "put", ns: NS.outbox, key: id, value: { due, attempts } }]);
    });
  }
}

/** At most this many lines, and this much text, go out in one thread message. */
export const THREAD_POST_LINES = 20;
export const THREAD_POST_CHARS = 3_000;

/**
 * A card's waiting thread lines, in order, cut into messages: lines that waited together go out together. A storm
 * card gathers lines faster than Slack takes messages in one channel (about one a second), and each message
 * sent meant a store write of the whole card (~15 KB for a fleet card), one per line: 1,400 lines per 30 s in
 * the 1,000-array polling benchmark. A crash between a message and its write re-sends that message alone.
 */
export function threadPosts<T extends { text: string }>(lines: readonly T[]): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let chars = 0;
  for (const line of lines) {
    if (
      cur.length > 0 &&
      (cur.length >= THREAD_POST_LINES || chars + 1 + line.text.length > THREAD_POST_CHARS)
    ) {
      out.push(cur);
      cur = [];
      chars = 0;
    }
    cur.push(line);
    chars += (chars > 0 ? 1 : 0) + line.text.length;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/** True when nothing on the card is open any more. */
export function isResolved(card: Card, members: readonly AlertRecord[]): boolean {
  if (card.kind === "reachability") return card.outage?.until !== undefined;
  return members.length > 0 && members.every((m) => isClosed(m));
}
