/**
 * Credentials written into a URL (`https://user:pass@host`) never reach a log line, an error message or a
 * channel: whatever the bot prints or logs passes through here, which keeps the scheme and host and blanks
 * the user-information part.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

export function redactUrlCredentials(text: string): string {
  return text.includes("@") ? text.replace(URL_CREDENTIALS, "$1[redacted]@") : text;
}
