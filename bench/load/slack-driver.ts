/**
 * The load test's Slack side as people use it: signed slash commands, button clicks (with what was typed in a
 * card's box) and dialog submissions sent to the bot's HTTP receiver, and their answers through response_url.
 */
import { randomUUID } from "node:crypto";
import { postSigned, type SlackStub } from "./slack-stub.js";

export type SlackDriver = ReturnType<typeof slackDriver>;

/**
 * A driver of the bot at `events` (its /slack/events URL, or a function giving the next replica's in turn),
 * signing with `secret`; answers come through `stub`.
 */
export function slackDriver(stub: SlackStub, events: string | (() => string), secret: string) {
  // Responses by response_url id.
  const waiting = new Map<string, (body: Record<string, unknown>) => void>();
  let answered = 0;
  /** Answers that may or may not come (a click that opens a modal answers nothing): not counted as missing. */
  const optional = new Map<string, (body: Record<string, unknown>) => void>();
  stub.events.on("response", (id: string, body: Record<string, unknown>) => {
    const o = optional.get(id);
    if (o !== undefined) {
      optional.delete(id);
      o(body);
      return;
    }
    const w = waiting.get(id);
    if (w === undefined) return;
    waiting.delete(id);
    answered++;
    w(body);
  });
  let seq = 0;
  const post = async (form: Record<string, string>): Promise<void> => {
    const status = await postSigned(typeof events === "string" ? events : events(), secret, form);
    if (status !== 200) throw new Error(`ack ${status}`);
  };
  const answer = (id: string) => new Promise<Record<string, unknown>>((r) => waiting.set(id, r));
  const command = async (user: string, text: string) => {
    const id = `c${++seq}`;
    const got = answer(id);
    await post({
      command: "/array",
      text,
      user_id: user,
      user_name: user.toLowerCase(),
      channel_id: "CLOAD",
      team_id: "T1",
      trigger_id: `t-${randomUUID()}`,
      response_url: stub.responseUrl(id),
    });
    return got;
  };
  /**
   * A button click; resolves with the response_url answer. With `answered` "maybe" (a click that may open a
   * modal instead), it resolves once the click is delivered, and `maybeAnswer` carries any answer that comes.
   */
  const click = async (
    user: string,
    actionId: string,
    value: string,
    ts: string,
    ephemeral: boolean,
    answered: true | "maybe" = true,
    maybeAnswer?: (body: Record<string, unknown>) => void,
    /** Ends the wait for a "maybe" answer (the modal opened instead). */
    maybeUntil?: AbortSignal,
    /** What the clicker typed in the card's own box (the name an eradication needs). */
    typedInCard?: string,
  ) => {
    const id = `k${++seq}`;
    if (answered === "maybe" && maybeAnswer) {
      optional.set(id, maybeAnswer);
      maybeUntil?.addEventListener("abort", () => optional.delete(id), { once: true });
    }
    const got = answered === true ? answer(id) : Promise.resolve({});
    const payload = {
      type: "block_actions",
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: "T1" },
      team: { id: "T1" },
      api_app_id: "A1",
      trigger_id: `t-${randomUUID()}`,
      container: { type: "message", message_ts: ts, channel_id: "CLOAD", is_ephemeral: ephemeral },
      channel: { id: "CLOAD", name: "load" },
      message: { type: "message", ts, text: "" },
      response_url: stub.responseUrl(id),
      ...(typedInCard === undefined
        ? {}
        : {
            state: {
              values: { card_typed: { typed_text: { type: "plain_text_input", value: typedInCard } } },
            },
          }),
      actions: [
        { type: "button", action_id: actionId, block_id: "b", value, action_ts: `${Date.now() / 1000}` },
      ],
    };
    await post({ payload: JSON.stringify(payload) });
    return got;
  };
  const submit = (user: string, meta: string, typed: string) =>
    post({
      payload: JSON.stringify({
        type: "view_submission",
        team: { id: "T1" },
        user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: "T1" },
        api_app_id: "A1",
        trigger_id: `t-${randomUUID()}`,
        view: {
          id: `V${randomUUID().slice(0, 8)}`,
          type: "modal",
          callback_id: "array_prompt",
          private_metadata: meta,
          state: { values: { confirmation: { typed_text: { type: "plain_text_input", value: typed } } } },
        },
      }),
    });
  return {
    command,
    click,
    submit,
    /** Answers received for the commands and clicks that must be answered. */
    answered: () => answered,
    /** What is still awaited: answers that must come, and answers that may. */
    pending: () => ({ waiting: waiting.size, optional: optional.size }),
  };
}

/** The value of the first button whose action id starts with `action`, anywhere in `body`. */
export function buttonValue(body: unknown, action: string): string | undefined {
  if (Array.isArray(body)) {
    for (const b of body) {
      const v = buttonValue(b, action);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  if (body === null || typeof body !== "object") return undefined;
  const o = body as Record<string, unknown>;
  if (
    typeof o["action_id"] === "string" &&
    o["action_id"].startsWith(action) &&
    typeof o["value"] === "string"
  ) {
    return o["value"];
  }
  return buttonValue(Object.values(o), action);
}
