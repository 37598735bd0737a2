/**
 * A bound on the sockets open to all arrays together. Every transport's connector asks the budget for a place
 * before it opens a socket and gives it back when the socket closes, so the bound holds at the socket layer
 * whatever undici decides. An idle keep-alive socket holds its place only while nobody waits: a connect that
 * finds the budget full closes the sockets of the array that has been idle longest (no request in flight), so
 * a fan-out over more arrays than the bound moves through them instead of waiting out keep-alive time-outs.
 */

/** What the budget needs from a transport to take back its idle sockets. */
export interface SocketHolder {
  /** Sockets it holds open with nothing running or queued on them. */
  readonly idleSockets: number;
  /** When its last request finished (arrays idle longest give up their sockets first). */
  readonly lastUsed: number;
  /** Closes its idle sockets; returns how many it closed (each gives its place back when it has closed). */
  shed(): number;
}

export interface BudgetStats {
  /** Sockets open now (or being opened). */
  open: number;
  /** The most open at once since start. */
  peak: number;
  /** Connects waiting for a place. */
  waiting: number;
  max: number;
  /** TLS handshakes of the sockets opened: full, and resumed from a session ticket (a cheap reconnect). */
  handshakes: { full: number; resumed: number };
}

/**
 * A connect waited for a place longer than it may (the array's connect time-out): every socket the bound allows
 * was busy. Its code lets the transport say so instead of "connection refused"; nothing was sent.
 */
export class SocketWaitEnded extends Error {
  readonly code = "ECHATOPS_SOCKETS_BUSY";
  constructor(readonly max: number) {
    super(`all ${max} connections the bot may open to arrays were busy`);
    this.name = "SocketWaitEnded";
  }
}

/** Gives a place back; calling it twice gives back one place. */
export type Release = () => void;

export class SocketBudget {
  #open = 0;
  #peak = 0;
  /** Places that will come back: sockets closed by shed() whose close has not happened yet. */
  #closing = 0;
  /** Connects for urgent calls (an approved change's, urgency.ts) go before all others. */
  readonly #urgent: ((release: Release) => void)[] = [];
  /** Then connects of arrays with no socket yet: an array that has one can go on using it meanwhile. */
  readonly #first: ((release: Release) => void)[] = [];
  readonly #extra: ((release: Release) => void)[] = [];
  readonly #holders = new Set<SocketHolder>();
  readonly #handshakes = { full: 0, resumed: 0 };

  constructor(readonly max: number) {}

  register(holder: SocketHolder): () => void {
    this.#holders.add(holder);
    return () => this.#holders.delete(holder);
  }

  stats(): BudgetStats {
    return {
      open: this.#open,
      peak: this.#peak,
      waiting: this.#waiting,
      max: this.max,
      handshakes: { ...this.#handshakes },
    };
  }

  /** A socket's TLS handshake finished (counted here, for the pool's stats and the benchmarks). */
  handshake(resumed: boolean): void {
    if (resumed) this.#handshakes.resumed++;
    else this.#handshakes.full++;
  }

  /** Every place is taken, or connects wait for one: a further socket would be taken from another array. */
  get full(): boolean {
    return this.#open >= this.max || this.#waiting > 0;
  }

  /**
   * Connects wait for a place: a further socket for an array that has one would be served after them, or take the
   * place of an array that has none. With every place taken but none waited for, a new connect takes an idle
   * array's socket at once (#reclaim), which costs nobody a wait.
   */
  get contended(): boolean {
    return this.#waiting > 0;
  }

  get #waiting(): number {
    return this.#urgent.length + this.#first.length + this.#extra.length;
  }

  /**
   * Resolves with a place once a socket may be opened; `extra` when the array already has a socket (or one on
   * the way), so connects of arrays that have none are served before it; `urgent` goes before both. `giveUp`
   * ends the wait: a signal, or a time in ms (its timer set only if the connect has to wait: most connects find
   * a place at once, and a signal with a time-out of its own for each of them was a timer per connect).
   */
  acquire(extra: boolean | "urgent" = false, giveUp?: AbortSignal | number): Promise<Release> {
    if (this.#open < this.max) return Promise.resolve(this.#grant());
    if (typeof giveUp === "object" && giveUp.aborted) return Promise.reject(new SocketWaitEnded(this.max));
    const queue = extra === "urgent" ? this.#urgent : extra ? this.#extra : this.#first;
    const waiting = new Promise<Release>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const take = (release: Release) => {
        clearTimeout(timer);
        resolve(release);
      };
      // A connect that gives up leaves the queue: otherwise a place would later go to a request that has
      // already failed, and the queue of a fleet stalled behind the bound would only grow.
      const leave = () => {
        const at = queue.indexOf(take);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(new SocketWaitEnded(this.max));
      };
      queue.push(take);
      if (typeof giveUp === "number") timer = setTimeout(leave, giveUp).unref();
      else giveUp?.addEventListener("abort", leave, { once: true });
    });
    this.#reclaim();
    return waiting;
  }

  /**
   * A holder has just become idle: if connects are waiting, its sockets go to them. Given the holder, only its
   * sockets are looked at: this runs whenever a request ends, and at a thousand arrays with the bound full a scan
   * of every holder here cost ~0.1 ms per ended request (busy machine); arrays idle longer were already asked
   * when the connect began to wait.
   */
  idle(holder?: SocketHolder): void {
    if (this.#closing >= this.#waiting) return;
    if (holder === undefined) this.#reclaim();
    else if (holder.idleSockets > 0) this.#closing += holder.shed();
  }

  #grant(): Release {
    this.#open++;
    if (this.#open > this.#peak) this.#peak = this.#open;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#open--;
      const next = this.#urgent.shift() ?? this.#first.shift() ?? this.#extra.shift();
      if (next) next(this.#grant());
    };
  }

  /** Closes idle sockets, longest idle first, until the places coming back cover the waiting connects. */
  #reclaim(): void {
    // One pass per place needed, for the holder idle longest, rather than sorting every holder: at a thousand
    // arrays with the bound full, every connect of an alert poll comes here, and nearly always needs one place.
    while (this.#closing < this.#waiting) {
      let oldest: SocketHolder | undefined;
      for (const h of this.#holders) {
        if ((oldest === undefined || h.lastUsed < oldest.lastUsed) && h.idleSockets > 0) oldest = h;
      }
      if (oldest === undefined) return;
      const closed = oldest.shed();
      if (closed === 0) return;
      this.#closing += closed;
    }
  }

  /** A socket shed() closed has closed (call before its release). */
  shedClosed(): void {
    if (this.#closing > 0) this.#closing--;
  }
}
