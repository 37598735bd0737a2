/**
 * PEM text (certificates, public keys) typed in chat. A slash command is one line: a PEM pasted into it arrives
 * with spaces where its newlines were, which no PEM reader accepts. The blocks are put back into their lines
 * here, so what a person pastes is what the array gets; text that holds no whole block is left as typed (the
 * array's own refusal then says what it expected).
 */

/** Fields whose value is PEM text and can be longer than ordinary text (a certificate chain). */
export const PEM_FIELD = /(^|_)certificate$|^public_key$/;
export const PEM_MAX = 16_384;

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\s]*?)-----END \1-----/g;

/** `-----BEGIN X----- MIIB… -----END X-----` → the standard form: base64 in lines of 64, one block per line set. */
export function normalisePem(text: string): string {
  const blocks = [...text.matchAll(BLOCK)];
  if (blocks.length === 0) return text;
  const rest = text.replace(BLOCK, "").trim();
  if (rest !== "") return text;
  return `${blocks
    .map(([, label, body]) => {
      const lines = (body ?? "").replace(/\s+/g, "").match(/.{1,64}/g) ?? [];
      return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join("\n");
    })
    .join("\n")}\n`;
}
