/**
 * A secret that refuses to be printed, serialised or logged by accident: an array's API token, an API client's
 * private key. Only `reveal()` hands out the value, at the one place that sends it.
 */
import { inspect } from "node:util";

export class Secret<T = string> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toJSON(): string {
    return "[redacted]";
  }
  toString(): string {
    return "[redacted]";
  }
  [inspect.custom](): string {
    return "[redacted]";
  }
}
