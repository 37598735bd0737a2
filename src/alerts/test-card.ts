import { type Message, rich } from "../core/presentation/message.js";
import { formatTime } from "./format.js";

/** The message `alert test` posts: shaped like an alert card, unmistakably a test, with no buttons. */
export function testCardMessage(requestedBy: string, now: number, timeZone: string): Message {
  const text = "🔵 Test alert from array-chatops";
  return {
    text,
    blocks: [
      { type: "header", text },
      {
        type: "section",
        text: rich`This is a test requested by ${requestedBy} at ${formatTime(now, timeZone)}. Array alerts routed to this channel will look like this, and later changes will update them in place.`,
      },
      { type: "context", text: rich`Nothing is wrong with any array. No action is needed.` },
    ],
    visibility: "in_channel",
  };
}
