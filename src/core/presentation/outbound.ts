/**
 * Answers leaving for another system (a workflow's outputs, an assistant's tool result): whatever reads them next
 * may show them to other people or post them back into Slack. So a secret shown once (a new access key) never
 * goes there, only to the person, privately; and array text is escaped so Slack renders no `<!channel>`, mention
 * or link that an array name or an alert smuggled in.
 */
import type { Message } from "./message.js";

export const WITHHELD_SECRET =
  "[withheld: this answer held a secret, shown once and only privately to the person who asked; it is kept nowhere]";

/** `<`, `>` and `&` as Slack's entities: text that a later step posts is shown as typed, never as markup. */
export function escapeSlackMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The messages as another system may see them: each secret one replaced by the withheld note. */
export function withoutSecrets(messages: readonly Message[]): Message[] {
  return messages.map((m) => (m.secret ? { text: WITHHELD_SECRET, blocks: [] } : m));
}
