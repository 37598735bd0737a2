/** The button of a posted card (a chat.postMessage call) whose action id ends with `action` ("approve", "deny"). */
export function cardButton(
  call: { args: Record<string, unknown> },
  action: string,
): { action_id: string; value: string } {
  const blocks = call.args["blocks"] as { type: string; elements?: { action_id: string; value: string }[] }[];
  const button = blocks
    .flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []))
    .find((e) => e.action_id.endsWith(action));
  if (!button) throw new Error(`the card has no ${action} button`);
  return button;
}
