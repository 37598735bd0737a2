/**
 * The response_url of each click that opened a typed-name dialog, kept in memory so the dialog's submission
 * replaces the card through it (no Web API call that a rate limit could hold), as the click itself would have.
 * Never written anywhere: a submission that another replica takes updates the card with chat.update.
 */
import type { Responder } from "./effects.js";

/** Responders kept for the dialogs a click opened: at most `max`, each for Slack's 30 minutes of response_url. */
export class DialogResponders {
  readonly #kept = new Map<string, { respond: Responder; until: number }>();
  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = 1000,
  ) {}

  keep(pendingId: string, userId: string, respond: Responder): void {
    const key = `${pendingId}:${userId}`;
    this.#kept.delete(key);
    this.#kept.set(key, { respond, until: this.now() + 30 * 60_000 });
    for (const k of this.#kept.keys()) {
      if (this.#kept.size <= this.max) break;
      this.#kept.delete(k);
    }
  }

  /**
   * The responder of the click that opened this person's dialog for this request, while Slack still takes it
   * (a submission refused for a wrong name is answered through it too, and the next one replaces the card).
   */
  of(pendingId: string, userId: string): Responder | undefined {
    const key = `${pendingId}:${userId}`;
    const kept = this.#kept.get(key);
    if (kept && kept.until <= this.now()) this.#kept.delete(key);
    return kept && kept.until > this.now() ? kept.respond : undefined;
  }
}
