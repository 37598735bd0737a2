/**
 * Clicks as a person makes them, through Bolt's real receiver: the Confirm of a card sent to them privately, and a
 * button of a card posted in a channel. The card is the fake Slack Web API's record of the call that carried it.
 */
import { cardButton } from "../../fakes/card-buttons.js";
import { blockAction, slashCommand } from "../../fakes/payloads.js";
import type { Harness } from "./harness.js";

type Call = Parameters<typeof cardButton>[0];

/** How many private messages `user` has had so far (so a test can wait for the next one). */
export const privateCount = (h: Harness, user: string): number =>
  h.fake.callsOf("chat.postEphemeral").filter((c) => c.args["user"] === user).length;

/**
 * Waits for the private card after the `before`-th sent to `user` and clicks its Confirm as them; its answer comes
 * back through response URL `responseId`. Returns the request's id.
 */
export async function confirmPrivately(
  h: Harness,
  user: string,
  before: number,
  responseId: string,
): Promise<string> {
  const card = await h.fake.waitForCall("chat.postEphemeral", (c) => c.args["user"] === user, before + 1);
  const confirm = cardButton(card, "confirm");
  await h.driver.interactive(
    blockAction({
      actionId: confirm.action_id,
      value: confirm.value,
      userId: user,
      messageTs: "1.000100",
      ephemeral: true,
      responseUrl: h.fake.responseUrl(responseId),
    }),
  );
  return confirm.value;
}

/** Clicks `label` on a card posted in `channel` (its newest message there), as `user`; returns the request's id. */
export async function clickCard(
  h: Harness,
  user: string,
  card: Call,
  label: "approve" | "deny" | "confirm",
  responseId: string,
  channel = "C1",
): Promise<string> {
  const b = cardButton(card, label);
  const ts = [...h.fake.messages.values()].filter((m) => m.channel === channel).at(-1)?.ts ?? "";
  await h.driver.interactive(
    blockAction({
      actionId: b.action_id,
      value: b.value,
      userId: user,
      messageTs: ts,
      responseUrl: h.fake.responseUrl(responseId),
    }),
  );
  return b.value;
}

/** Types `/array <text>` as `user`; returns the answer its response URL `responseId` got, as JSON text. */
export async function typeCommand(
  h: Harness,
  user: string,
  text: string,
  responseId: string,
): Promise<string> {
  await h.driver.command(slashCommand({ text, userId: user, responseUrl: h.fake.responseUrl(responseId) }));
  return JSON.stringify((await h.fake.waitForResponse((r) => r.id === responseId)).body);
}
