/**
 * The engine's mutex across replicas. In one process, `Mutex` keeps a poll's plan, a notifier commit and an
 * alert button click from interleaving between reading a card and writing it back. With replicas, the click can
 * run on any replica while the array's lease holder polls, so the same critical sections also take a short lock
 * record in the shared store (a compare-and-set with an expiry, so a replica that dies inside one frees it on its
 * own). Sections hold it only around store work, never while waiting on Slack or an array.
 */
import { randomUUID } from "node:crypto";
import { InternalError } from "../errors.js";
import type { Store } from "../store/types.js";
import { Mutex } from "./mutex.js";

const NS = "alerts.lock";
const KEY = "engine";
/** Far longer than any section (a few store round trips), short enough that a dead holder is not waited on long. */
const HOLD_MS = 10_000;
const MAX_WAIT_ATTEMPTS = 2_000;

interface LockRecord {
  token: string;
  until: number;
}

export class SharedMutex extends Mutex {
  constructor(
    private readonly store: Store,
    private readonly owner: string,
    private readonly now: () => number,
  ) {
    super();
  }

  override run<T>(fn: () => Promise<T>): Promise<T> {
    return super.run(async () => {
      const token = await this.acquire();
      try {
        return await fn();
      } finally {
        await this.release(token).catch(() => undefined);
      }
    });
  }

  private async acquire(): Promise<string> {
    const token = `${this.owner}/${randomUUID()}`;
    for (let attempt = 0; attempt < MAX_WAIT_ATTEMPTS; attempt++) {
      const t = this.now();
      let won = false;
      await this.store.update<LockRecord>(
        NS,
        KEY,
        (cur) => {
          won = !cur || cur.until <= t;
          return won ? { token, until: t + HOLD_MS } : cur;
        },
        { expiresAt: t + HOLD_MS },
      );
      if (won) return token;
      // Another replica is inside a section (milliseconds): wait a little, in real time, and look again.
      await new Promise((r) => setTimeout(r, 1 + Math.floor(Math.random() * 5)));
    }
    throw new InternalError("ALERTS_LOCK_BUSY", "the alert engine's shared lock stayed busy; try again");
  }

  private async release(token: string): Promise<void> {
    await this.store.update<LockRecord>(NS, KEY, (cur) => (cur?.token === token ? undefined : cur));
  }
}
