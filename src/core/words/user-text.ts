/**
 * Markup markers in user text and their look-alikes. A user's word quoted back in the bot's own text (an
 * error, a usage line) must never open or close the bot's `code` spans. Reading words is where that quoting
 * starts (the parser's errors), so the stand-ins live with the words and the message model uses them too.
 */

const ZWSP = "\u200b";
export const STAND_IN: Readonly<Record<string, string>> = {
  "*": `${ZWSP}\u2217`,
  _: `${ZWSP}\u02cd`,
  "~": `${ZWSP}\u223c`,
  "`": `${ZWSP}\u02cb`,
};

/**
 * A user-supplied word placed inside the bot's own text (an error, a usage line): its backticks become the
 * stand-in, so they can never open or close the bot's `code` spans. Use it for every user value in an error.
 */
export function userText(s: string): string {
  return s.replace(/`/g, STAND_IN["`"] ?? "`");
}
