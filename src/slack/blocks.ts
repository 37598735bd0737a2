/**
 * The neutral Message → a Slack payload (fallback text, Block Kit blocks, files to upload), within Slack's
 * limits: per-block limits in block-render.ts, and here the whole-message budgets (50 blocks, 100 on App
 * Home and modals; about 12k characters in all). When content must be dropped, buttons stay, a note says
 * so, and the full output goes along as `full-output.txt`. Pure: no I/O.
 */
import { escapeText, type Message, visibleControls } from "../core/presentation/message.js";
import {
  DEFAULT_TABLE_STYLE,
  type OutgoingFile,
  type Piece,
  type RenderState,
  renderBlock,
  type SlackBlock,
  type Surface,
  type TableStyle,
} from "./block-render.js";
import { formOfferPieces } from "./form-offer-render.js";
import { LIMITS, safeCut } from "./limits.js";
import { messageToPlainText } from "./plain-text.js";

export type { OutgoingFile, SlackBlock, Surface, TableStyle } from "./block-render.js";
export { baseActionId } from "./block-render.js";

export interface SlackPayload {
  /** Notification / screen-reader text, escaped for mrkdwn. */
  text: string;
  blocks: SlackBlock[];
  files: OutgoingFile[];
  /** True when blocks were dropped to fit; the full output is then among `files`. */
  shortened: boolean;
}

const NOTE_CHARS = 200;

function fallbackText(msg: Message): string {
  const first = msg.blocks.find((b) => b.type === "header");
  const raw = msg.text.trim() || (first?.type === "header" ? first.text : "") || "array-chatops";
  return safeCut(escapeText(visibleControls(raw)), LIMITS.fallbackText);
}

function fits(pieces: readonly Piece[], maxBlocks: number, budget: number): boolean {
  let blocks = 0;
  let chars = 0;
  for (const p of pieces) {
    blocks += p.blocks.length;
    chars += p.chars;
  }
  return blocks <= maxBlocks && chars <= budget;
}

/** Keeps every essential piece and the longest prefix of the others that fits, plus a note. */
function shorten(
  pieces: readonly Piece[],
  maxBlocks: number,
  budget: number,
): { kept: Piece[]; dropped: number } {
  let blocks = 1;
  let chars = NOTE_CHARS;
  for (const p of pieces) {
    if (p.essential) {
      blocks += p.blocks.length;
      chars += p.chars;
    }
  }
  const kept: Piece[] = [];
  let dropped = 0;
  let open = true;
  for (const p of pieces) {
    if (p.essential) {
      kept.push(p);
      continue;
    }
    if (open && blocks + p.blocks.length <= maxBlocks && chars + p.chars <= budget) {
      kept.push(p);
      blocks += p.blocks.length;
      chars += p.chars;
    } else {
      open = false;
      dropped += p.blocks.length;
    }
  }
  return { kept, dropped };
}

export function toSlack(
  msg: Message,
  surface: Surface = "message",
  tables: TableStyle = DEFAULT_TABLE_STYLE,
): SlackPayload {
  const maxBlocks = surface === "message" ? LIMITS.blocksPerMessage : LIMITS.blocksPerView;
  const budget = surface === "message" ? LIMITS.messageTextBudget : LIMITS.viewTextBudget;
  const state: RenderState = {
    surface,
    tables,
    tableUsed: false,
    charts: 0,
    lastHeader: "",
    files: (msg.attachments ?? []).map((a) => ({ ...a })),
    actionIds: new Set(),
  };
  const pieces = msg.blocks.flatMap((b) => renderBlock(b, state));
  // Forms open from messages only: a view or the home has no list to change.
  if (surface === "message" && msg.forms) pieces.push(...formOfferPieces(msg.forms, state));
  const text = fallbackText(msg);
  if (fits(pieces, maxBlocks, budget)) {
    return { text, blocks: pieces.flatMap((p) => p.blocks), files: state.files, shortened: false };
  }

  const { kept, dropped } = shorten(pieces, maxBlocks, budget);
  const filename = state.files.some((f) => f.filename === "full-output.txt")
    ? "full-output-2.txt"
    : "full-output.txt";
  state.files.push({
    filename,
    title: "Full output",
    contentType: "text/plain",
    content: messageToPlainText(msg),
  });
  const note: SlackBlock = {
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: `Shortened to fit in Slack (${dropped} more block${dropped === 1 ? "" : "s"}). The full output is attached as ${filename}.`,
      },
    ],
  };
  // The note goes after the last kept content, before trailing buttons, so it reads in place.
  const blocks: SlackBlock[] = [];
  let noteAt = kept.length;
  while (noteAt > 0 && kept[noteAt - 1]?.essential) noteAt--;
  kept.forEach((p, i) => {
    if (i === noteAt) blocks.push(note);
    blocks.push(...p.blocks);
  });
  if (noteAt === kept.length) blocks.push(note);
  return { text, blocks: blocks.slice(0, maxBlocks), files: state.files, shortened: true };
}
