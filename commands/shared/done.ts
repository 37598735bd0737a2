/** The one-line reply a change command posts to the channel when it is done. */
import { type Message, message, type Rich, rich } from "../../src/core/presentation/message.js";

/**
 * `text` is the notification line; the section shows `markup` when given (bold names and the like),
 * else `text` itself, escaped.
 */
export function done(text: string, markup: Rich = rich`${text}`): Message {
  return message(text, [{ type: "section", text: markup }], { visibility: "in_channel" });
}
