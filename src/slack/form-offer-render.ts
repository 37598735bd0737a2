/**
 * A list's form offers (src/core/catalogue/form-offers.ts) in Block Kit: a Create button and a Change menu, in one actions
 * block after the answer. Only messages show them (blocks.ts); the console and views never do.
 */
import type { FormOffer } from "../core/presentation/message.js";
import { singleLine } from "../core/presentation/message.js";
import { button, type Piece, piece, type RenderState, type SlackBlock } from "./block-render.js";
import { truncate } from "./limits.js";

const plainText = (text: string) => ({ type: "plain_text", text, emoji: true });

/** Action ids of a list's form offers (src/core/catalogue/form-offers.ts); src/slack/listeners/forms.ts opens the form. */
export const FORM_CREATE_ACTION = "form.create";
export const FORM_CHANGE_ACTION = "form.change";

/** Where an offer's form runs: its command and array, carried in the button's value or the menu's block id. */
export interface OfferTarget {
  path: string;
  array: string;
}

export function readOfferTarget(text: string | undefined): OfferTarget | undefined {
  try {
    const t = JSON.parse(text ?? "") as Partial<OfferTarget>;
    return typeof t.path === "string" && typeof t.array === "string"
      ? { path: t.path, array: t.array }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A list's form offers as one actions block: a Create button, and a Change menu of the listed names (each name
 * an option, so picking one opens the form prefilled). Kept like buttons when a message is shortened.
 */
export function formOfferPieces(offers: readonly FormOffer[], state: RenderState): Piece[] {
  const elements: SlackBlock[] = [];
  let blockId: string | undefined;
  for (const o of offers) {
    const target = JSON.stringify({ path: o.path, array: o.array } satisfies OfferTarget);
    if (o.names === undefined) {
      elements.push(button({ actionId: FORM_CREATE_ACTION, label: o.label, value: target }, state));
      continue;
    }
    // The value is the name as the array has it; a name with control characters is left to the form's own menu.
    const options = o.names
      .filter((n) => n.length <= 150 && singleLine(n) === n)
      .slice(0, 100)
      .map((n) => ({ text: plainText(truncate(singleLine(n), 75)), value: n }));
    if (options.length === 0 || target.length > 255 || blockId !== undefined) continue;
    blockId = target;
    state.actionIds.add(FORM_CHANGE_ACTION);
    elements.push({
      type: "static_select",
      action_id: FORM_CHANGE_ACTION,
      placeholder: plainText(truncate(o.label, 150)),
      options,
    });
  }
  if (elements.length === 0) return [];
  return [piece([{ type: "actions", ...(blockId ? { block_id: blockId } : {}), elements }], 0, true)];
}
