/**
 * Forms for changes: `/array fs create` typed with nothing after it opens a modal built from the command's
 * arguments (src/core/catalogue/forms.ts). Submitting it runs the line it stands for as a dry run and shows the impact in
 * the modal (the exact requests included); submitting that runs the line for real, through the same gate as a
 * typed command. Closing the modal at any step leaves nothing behind: nothing is pending until the last submit.
 */
import type { FormField, FormSpec } from "../core/catalogue/forms.js";
import type { Message } from "../core/presentation/message.js";
import { type SlackBlock, toSlack } from "./blocks.js";
import { LIMITS, truncate } from "./limits.js";

export const FORM_CALLBACK_ID = "array_form";
/** The action id of every input of a form (the block id says which argument it is). */
export const FORM_INPUT = "array_form_value";
const INPUT = FORM_INPUT;
/** Slack shows at most this much of an input's error. */
const ERROR_CHARS = 150;

/** What a submission must come back with: the form's command, where it was opened, and the step. */
interface FormMeta {
  path: string;
  channelId: string;
  /** The line the preview showed; present on the preview step only. */
  line?: string;
}

const plain = (text: string) => ({ type: "plain_text", text, emoji: true });

function element(f: FormField): Record<string, unknown> {
  const v = f.initial;
  const option = (x: string) => ({ text: plain(truncate(x, 75)), value: x });
  if (f.kind === "switch")
    return {
      type: "checkboxes",
      action_id: INPUT,
      options: [{ text: plain(truncate(f.label, 75)), value: "on" }],
      ...(v === true ? { initial_options: [{ text: plain(truncate(f.label, 75)), value: "on" }] } : {}),
    };
  const text = typeof v === "string" && v !== "" && v.length <= 150 ? v : undefined;
  if (f.lookup !== undefined)
    // Picked from the array, searched as the person types (block_suggestion, answered by the pipeline's lookup).
    return {
      type: "external_select",
      action_id: INPUT,
      min_query_length: 0,
      placeholder: plain("Search the array"),
      ...(text ? { initial_option: option(text) } : {}),
    };
  if (f.kind === "choice") {
    const choices = (f.choices ?? []).slice(0, 100);
    return {
      type: "static_select",
      action_id: INPUT,
      options: choices.map(option),
      ...(text && choices.includes(text) ? { initial_option: option(text) } : {}),
    };
  }
  return {
    type: "plain_text_input",
    action_id: INPUT,
    max_length: 3000,
    ...(typeof v === "string" && v !== "" ? { initial_value: v.slice(0, 3000) } : {}),
  };
}

/** What the form does, and from which REST version arrays have it when only some do. */
const summaryOf = (form: FormSpec) =>
  form.since === undefined
    ? form.summary
    : `${form.summary}. Only arrays on REST ${form.since} or newer have this: on another, the preview says which version has it and nothing is sent.`;

/** The form's first view: one input per argument, required ones first as the command declares them. */
export function formView(form: FormSpec, channelId: string): Record<string, unknown> {
  const blocks: SlackBlock[] = [
    {
      type: "section",
      text: { type: "mrkdwn", text: truncate(summaryOf(form), LIMITS.sectionText), verbatim: true },
    },
    ...form.fields.map((f) => ({
      type: "input",
      block_id: f.key,
      optional: f.optional || f.kind === "switch",
      // A worded label ("Bandwidth limit") reads better than its option; the preview shows the line typed.
      label: plain(truncate(f.worded ? f.label : (f.option ?? f.label), LIMITS.inputLabel)),
      ...(f.hint ? { hint: plain(truncate(f.hint, 150)) } : {}),
      element: element(f),
    })),
  ];
  return {
    type: "modal",
    callback_id: FORM_CALLBACK_ID,
    private_metadata: JSON.stringify({ path: form.path, channelId } satisfies FormMeta),
    title: plain(truncate(form.title, LIMITS.modalTitle)),
    submit: plain("Preview"),
    close: plain("Cancel"),
    blocks,
  };
}

/** The preview: what the dry run answered (impact, warnings, the exact requests), and "Request" to go on. */
export function previewView(
  form: FormSpec,
  channelId: string,
  line: string,
  dryRun: Message,
): Record<string, unknown> {
  const shown = toSlack(dryRun, "modal").blocks.filter((b) => b.type !== "actions");
  const note: SlackBlock = {
    type: "context",
    elements: [
      {
        type: "mrkdwn",
        text: truncate(
          `Request sends \`/array ${line}\` as you, through the same confirmation or approval as a typed command. Cancel leaves nothing behind.`,
          LIMITS.contextText,
        ),
      },
    ],
  };
  return {
    type: "modal",
    callback_id: FORM_CALLBACK_ID,
    private_metadata: JSON.stringify({ path: form.path, channelId, line } satisfies FormMeta),
    title: plain(truncate(form.title, LIMITS.modalTitle)),
    submit: plain("Request"),
    close: plain("Cancel"),
    blocks: [...shown.slice(0, 90), note],
  };
}

export interface SubmittedForm {
  private_metadata?: string;
  state?: {
    values?: Record<
      string,
      Record<
        string,
        | {
            value?: string | null;
            selected_option?: { value?: string } | null;
            selected_options?: { value?: string }[] | null;
          }
        | undefined
      >
    >;
  };
}

/** The submission's metadata, or undefined when it is not a form of ours. */
export function readFormMeta(view: Pick<SubmittedForm, "private_metadata">): FormMeta | undefined {
  try {
    const m = JSON.parse(view.private_metadata ?? "") as Partial<FormMeta>;
    if (typeof m.path !== "string" || typeof m.channelId !== "string") return undefined;
    return { path: m.path, channelId: m.channelId, ...(typeof m.line === "string" ? { line: m.line } : {}) };
  } catch {
    return undefined;
  }
}

/** The values typed into the form, by argument key. */
export function readFormValues(
  form: FormSpec,
  view: SubmittedForm,
): Record<string, string | boolean | undefined> {
  const out: Record<string, string | boolean | undefined> = {};
  for (const f of form.fields) {
    const v = view.state?.values?.[f.key]?.[INPUT];
    if (f.kind === "switch") out[f.key] = (v?.selected_options ?? []).length > 0;
    else if (f.kind === "choice" || f.lookup !== undefined)
      out[f.key] = v?.selected_option?.value ?? undefined;
    else out[f.key] = v?.value ?? undefined;
  }
  return out;
}

/**
 * The errors to show beside the fields, from the answer the pipeline gave: each `• --option: message` or
 * `• <argument>: message` line goes to its field; an answer that names one field's value ("There is no snapshot
 * policy named "nightly"", checked against the array) goes beside that field; anything else (a refusal by role)
 * to the first.
 */
export function fieldErrors(
  form: FormSpec,
  answer: string,
  values: Readonly<Record<string, string | boolean | undefined>> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const line of answer.split("\n")) {
    // `• --size: …` for an option, `• <size>: …` for a positional argument (src/core/pipeline/parse.ts).
    const m = /^•\s*(?:--([a-z0-9-]+)|<([a-z0-9-]+)>):\s*(.+)$/.exec(line.trim());
    if (!m) continue;
    const word = m[1] ?? m[2] ?? "";
    const f = form.fields.find(
      (x) => x.option === `--${word}` || x.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) === word,
    );
    if (f && errors[f.key] === undefined) errors[f.key] = truncate(m[3] ?? "", ERROR_CHARS);
  }
  const first = namedIn(form, answer, values) ?? form.fields[0];
  if (Object.keys(errors).length === 0 && first)
    errors[first.key] = truncate(answer.split("\n")[0] ?? answer, ERROR_CHARS);
  return errors;
}

/** The one field whose value the answer names as a whole word (not inside a longer name), if only one is. */
function namedIn(
  form: FormSpec,
  answer: string,
  values: Readonly<Record<string, string | boolean | undefined>>,
): FormSpec["fields"][number] | undefined {
  const named = form.fields.filter((f) => {
    const v = values[f.key];
    if (typeof v !== "string" || v.trim() === "") return false;
    const at = new RegExp(`(?:^|[\\s"'\`(])${escapeRegExp(v.trim())}(?=$|[\\s"'\`),;:]|\\.(?:\\s|$))`);
    return at.test(answer);
  });
  return named.length === 1 ? named[0] : undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
