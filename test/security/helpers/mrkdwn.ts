/** Every string Slack would read as mrkdwn in a payload the bot sent: mrkdwn text objects and a message's `text`. */
export function mrkdwnTexts(payload: unknown, top = true): string[] {
  if (Array.isArray(payload)) return payload.flatMap((p) => mrkdwnTexts(p, false));
  if (payload === null || typeof payload !== "object") return [];
  const o = payload as Record<string, unknown>;
  const own: string[] = [];
  if (o["type"] === "mrkdwn" && typeof o["text"] === "string") own.push(o["text"]);
  if (top && typeof o["text"] === "string") own.push(o["text"]);
  if (top && typeof o["initial_comment"] === "string") own.push(o["initial_comment"]);
  return [
    ...own,
    ...Object.entries(o).flatMap(([k, v]) =>
      k === "text" && typeof v === "string" ? [] : mrkdwnTexts(v, false),
    ),
  ];
}
