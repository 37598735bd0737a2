/**
 * Alert notification engine: the shapes it works on and the narrow ports it talks through. The engine never
 * imports Slack or the array client; the composition root hands it adapters (pool-source.ts, a chat port).
 */
import type { AlertSnapshot } from "../core/context/alert-port.js";
import type { Actor, Effect, MessageRef } from "../core/context/pipeline-types.js";
import type { CapacityForecast } from "../core/forecast/capacity.js";
import type { Message } from "../core/presentation/message.js";

// The alert shape commands see is core's (src/core/context/alert-port.ts): the engine builds on it, core never reaches here.
export { type AlertSnapshot, SEVERITIES, type Severity, severityRank } from "../core/context/alert-port.js";

/** What the engine remembers per alert. */
export interface AlertRecord extends AlertSnapshot {
  array: string;
  /** Bot time the alert was first seen. */
  firstSeenAt: number;
  /** Cards (one per routed channel) that show this alert. */
  cardIds: string[];
}

/** Raw alert as the array sends it; validated by alert-model.ts. */
export type RawAlert = Record<string, unknown>;

export interface AlertQuery {
  filter?: string;
  sort?: string;
  limit?: number;
  names?: readonly string[];
}

export interface ArrayTarget {
  name: string;
  tags: readonly string[];
}

/** Where alerts come from: the session pool in production, the same pool against the simulator in tests. */
export interface AlertSource {
  arrays(): readonly ArrayTarget[];
  /** Every matching alert (all pages). Throws coded errors (ARRAY_UNREACHABLE, …). */
  list(array: string, q: AlertQuery): Promise<RawAlert[]>;
  /** `PATCH /alerts?names=<name>` with `{flagged}`. */
  setFlagged(array: string, name: string, flagged: boolean): Promise<void>;
  /** The array's capacity forecast (src/core/forecast), for the capacity_forecast rule; absent in replays. */
  capacityForecast?(array: string, windowMs: number): Promise<CapacityForecast>;
  /** Each certificate's end (GET /certificates), for the certificate_expiry rule; absent in replays. */
  certificates?(array: string): Promise<{ name: string; validTo: number }[]>;
  /** The array's own maintenance windows (REST 2.16+); [] where it keeps none. Absent in replays. */
  maintenanceWindows?(array: string): Promise<{ name: string; start: number; end: number }[]>;
  /** False when the array's API predates /alerts (REST < 1.2); such arrays are only probed for reachability. */
  supportsAlerts(array: string): Promise<boolean>;
  /** A cheap call that succeeds when the array answers (reachability of arrays without /alerts). */
  probe(array: string): Promise<void>;
}

/** The Slack side, as narrow as the engine needs it. */
export interface AlertChat {
  post(channel: string, message: Message): Promise<MessageRef>;
  update(ref: MessageRef, message: Message): Promise<unknown>;
  /** Plain text; the port escapes it and never lets it mention anyone. */
  postInThread(ref: MessageRef, text: string): Promise<unknown>;
}

export type TimerHandle = { readonly id: number };

/** Time and timers, injected so tests and the replay drive time by hand. */
export interface Clock {
  now(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** Who may act on an alert; backed by the command layer's role resolution. */
export interface AlertAuthorizer {
  /** True when the actor holds at least `role` on `array`. */
  allowed(
    actor: { userId: string; channelId: string },
    array: string,
    role: "viewer" | "operator",
  ): Promise<boolean>;
}

/** Runs a follow-up command (e.g. `space`) through the normal command pipeline, with its role checks. */
export interface FollowUpRunner {
  run(text: string, actor: Actor): Promise<Effect[]>;
}

export type CardKind = "alert" | "summary" | "reachability";

export interface ThreadLine {
  id: number;
  text: string;
}

/**
 * One Slack message the engine owns: an alert card (one alert, or one alert family that keeps reopening), a
 * storm summary, or an array reachability card. Cards are the unit of posting, updating and threading.
 */
export interface Card {
  id: string;
  kind: CardKind;
  array: string;
  channel: string;
  /** Alert cards: the family key (array, code, component). */
  family?: string;
  /** A fleet storm summary: the same alert on many arrays (fleet-storm.ts); its family key (code, component kind). */
  fleet?: string;
  /** Alert keys shown on the card, oldest first. */
  members: string[];
  ref?: MessageRef;
  createdAt: number;
  /** Bumped on every change; the notifier renders and records which version Slack shows. */
  version: number;
  syncedVersion: number;
  /** When the notifier last brought the Slack message up to date (bot clock): fleet cards are paced from it. */
  syncedAt?: number;
  /** Lines waiting to go into the message's thread. */
  thread: ThreadLine[];
  nextLineId: number;
  /** Quiet hours or a maintenance window: not posted before this time (bot clock). */
  holdUntil?: number;
  holdReason?: "quiet hours" | "maintenance";
  /** Array times of the family's reopenings inside the flap window (alert cards). */
  reopenings: number[];
  /** Reachability cards: the outage. */
  outage?: { since: number; until?: number; reason: string };
  /** Set when the card will never be posted (it resolved while held); kept for counts. */
  dropped?: boolean;
  /** Slack refused the card for good (channel gone); kept so it is not retried forever. */
  failed?: string;
}
