/** Slack payload builders with fixed ids (Bolt's test helpers' pattern), shared by both transports. */
import { randomUUID } from "node:crypto";

export const TEAM = "T1";
export const APP = "A1";

export interface CommandOpts {
  text: string;
  userId?: string;
  userName?: string;
  channelId?: string;
  triggerId?: string;
  responseUrl: string;
}

export function slashCommand(o: CommandOpts): Record<string, string> {
  return {
    token: "deprecated-verification-token",
    team_id: TEAM,
    team_domain: "test",
    channel_id: o.channelId ?? "C1",
    channel_name: "ops",
    user_id: o.userId ?? "U1",
    user_name: o.userName ?? "alice",
    command: "/array",
    text: o.text,
    api_app_id: APP,
    is_enterprise_install: "false",
    response_url: o.responseUrl,
    trigger_id: o.triggerId ?? `trig-${randomUUID()}`,
  };
}

export interface ActionOpts {
  actionId: string;
  value: string;
  userId?: string;
  userName?: string;
  channelId?: string;
  messageTs: string;
  ephemeral?: boolean;
  responseUrl: string;
  triggerId?: string;
  /** What the clicker had typed in the card's own box (Slack sends it in the click's state). */
  typedInCard?: string;
}

export function blockAction(o: ActionOpts): Record<string, unknown> {
  const userId = o.userId ?? "U2";
  const channelId = o.channelId ?? "C1";
  return {
    type: "block_actions",
    user: {
      id: userId,
      username: o.userName ?? userId.toLowerCase(),
      name: o.userName ?? userId.toLowerCase(),
      team_id: TEAM,
    },
    api_app_id: APP,
    token: "deprecated-verification-token",
    container: {
      type: "message",
      message_ts: o.messageTs,
      channel_id: channelId,
      is_ephemeral: o.ephemeral ?? false,
    },
    trigger_id: o.triggerId ?? `trig-${randomUUID()}`,
    team: { id: TEAM, domain: "test" },
    channel: { id: channelId, name: "ops" },
    message: { type: "message", ts: o.messageTs, text: "" },
    response_url: o.responseUrl,
    ...(o.typedInCard === undefined
      ? {}
      : {
          state: {
            values: { card_typed: { typed_text: { type: "plain_text_input", value: o.typedInCard } } },
          },
        }),
    actions: [
      {
        type: "button",
        action_id: o.actionId,
        block_id: "b1",
        value: o.value,
        text: { type: "plain_text", text: "x" },
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  };
}

export interface ViewSubmitOpts {
  userId?: string;
  privateMetadata: string;
  /** The typed-name prompt's input; ignored when `values` is given. */
  typedText?: string;
  viewId?: string;
  /** Another modal (the secret prompt: "array_secret"). */
  callbackId?: string;
  /** The inputs' values by block id and action id, as Slack sends them. */
  values?: Record<string, Record<string, string>>;
}

export function viewSubmission(o: ViewSubmitOpts): Record<string, unknown> {
  const userId = o.userId ?? "U2";
  return {
    type: "view_submission",
    team: { id: TEAM, domain: "test" },
    user: { id: userId, username: userId.toLowerCase(), name: userId.toLowerCase(), team_id: TEAM },
    api_app_id: APP,
    token: "deprecated-verification-token",
    trigger_id: `trig-${randomUUID()}`,
    view: {
      id: o.viewId ?? `V${randomUUID().slice(0, 8)}`,
      team_id: TEAM,
      type: "modal",
      callback_id: o.callbackId ?? "array_prompt",
      private_metadata: o.privateMetadata,
      state: {
        values: Object.fromEntries(
          Object.entries(o.values ?? { confirmation: { typed_text: o.typedText ?? "" } }).map(
            ([block, inputs]) => [
              block,
              Object.fromEntries(
                Object.entries(inputs).map(([id, value]) => [id, { type: "plain_text_input", value }]),
              ),
            ],
          ),
        ),
      },
      hash: "h1",
      title: { type: "plain_text", text: "Confirm" },
      blocks: [],
      app_id: APP,
      bot_id: "BBOT",
    },
    response_urls: [],
  };
}

export function eventCallback(event: Record<string, unknown>, eventId = `Ev${randomUUID().slice(0, 8)}`) {
  return {
    token: "deprecated-verification-token",
    team_id: TEAM,
    api_app_id: APP,
    event,
    type: "event_callback",
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM, user_id: "UBOT", is_bot: true, is_enterprise_install: false }],
  };
}

/** What Slack sends when a person types `value` into an external_select of an open modal's block `blockId`. */
export function blockSuggestion(o: {
  userId: string;
  blockId: string;
  actionId: unknown;
  value: string;
  privateMetadata: string;
}): Record<string, unknown> {
  return {
    type: "block_suggestion",
    team: { id: "T1", domain: "test" },
    user: { id: o.userId, name: o.userId.toLowerCase(), team_id: "T1" },
    api_app_id: "A1",
    token: "deprecated-verification-token",
    container: { type: "view", view_id: "V1" },
    block_id: o.blockId,
    action_id: o.actionId,
    value: o.value,
    view: {
      id: "V1",
      type: "modal",
      callback_id: "array_form",
      private_metadata: o.privateMetadata,
      state: { values: {} },
    },
  };
}
