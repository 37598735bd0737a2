/**
 * Workflow Builder steps, one per common change, generated from data: each step's inputs are the fields of the
 * change's form (forms.ts, read from the command's argument schema), and a run builds the same command line a
 * submitted form does (formLine), so a step is a form filled by a workflow. manifest.yml's `functions:` is
 * written from `workflowFunctions` (npm run gen:workflow-steps) and test/slack/manifest.test.ts compares them.
 */
import { type FormField, type FormSpec, formFor, formLine } from "./forms.js";
import type { Registry } from "./registry.js";

/** The changes a workflow can make as a step of its own (a form each); anything else goes through run_array_command. */
export const WORKFLOW_CHANGES = [
  "fs create",
  "fs update",
  "quota set",
  "bucket create",
  "replica-link fs create",
  "policy create",
  // The REST 2.x families' common changes (issue 42); on a 1.x array the step fails saying which version has it.
  "maintenance-window create",
  "legal-hold held-entity create",
  "qos-policy update",
  "qos-policy member add",
  "nfs-export-policy rule create",
] as const;

/** The generic step: "request approval of an /array command" for any line a workflow holds. */
export const RUN_COMMAND_STEP = "run_array_command";

/** `replica-link fs create` → `array_replica_link_fs_create`. */
export const stepIdOf = (path: string): string =>
  `array_${path
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")}`;

/** A form field's input name: `hardLimit` → `hard_limit` (manifest parameters are snake_case). */
export const inputNameOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface StepParameter {
  type: "string" | "boolean" | "slack#/types/user_context" | "slack#/types/channel_id";
  title: string;
  description: string;
  is_required: boolean;
}

export interface StepDefinition {
  title: string;
  description: string;
  input_parameters: Record<string, StepParameter>;
  output_parameters: Record<string, StepParameter>;
}

const OUTPUTS: Record<string, StepParameter> = {
  status: {
    type: "string",
    title: "Status",
    description: "done (answered at once) or executed (carried out after its confirmation or approval)",
    is_required: true,
  },
  result: {
    type: "string",
    title: "Result",
    description: "The answer, or what was carried out",
    is_required: true,
  },
  request_id: {
    type: "string",
    title: "Request id",
    description: "The request that waited for a person, when there was one",
    is_required: false,
  },
};

/**
 * Who is behind a run. `requester` is a `user_context`: Workflow Builder shows no field for it and a builder cannot
 * set it; Slack fills it from the person who started the workflow (or clicked its button). That person caps the
 * step's own role and confirms any change. There is deliberately no "run as" input: a person named in data
 * never acts (src/core/access/actors.ts).
 */
const WHO: Record<"requester" | "channel", StepParameter> = {
  requester: {
    type: "slack#/types/user_context",
    title: "Requested by",
    description:
      "Filled by Slack with the person who used the workflow: the step acts within their role and the step's own, and they confirm any change",
    is_required: true,
  },
  channel: {
    type: "slack#/types/channel_id",
    title: "Channel",
    description: "Where the answer and any approval card are posted",
    is_required: true,
  },
};

const ARRAY_FIELD: FormField = {
  key: "array",
  option: "--array",
  label: "Array",
  kind: "text",
  optional: true,
  hint: "The array to run on (the channel's default when empty)",
};

function parameterOf(f: FormField): StepParameter {
  const what = [
    f.hint,
    f.choices ? `One of: ${f.choices.join(", ")}` : undefined,
    f.lookup ? "The name of an existing one" : undefined,
    f.option ? `(${f.option})` : undefined,
  ].filter((x): x is string => x !== undefined && x !== "");
  return {
    type: f.kind === "switch" ? "boolean" : "string",
    title: f.label,
    description: (what.join(". ") || f.label).slice(0, 250),
    // A switch is a tick: never required (unticked sends nothing).
    is_required: f.kind !== "switch" && !f.optional,
  };
}

/** The form a change's step fills: the command's form, with an `array` field when the command has none. */
export function stepForm(registry: Registry, path: string): FormSpec {
  const form = formFor(registry, path);
  if (!form) throw new Error(`workflow step "${path}": the command has no form`);
  return withArrayField(form);
}

/** A form with an `array` field (text: a workflow names the array; empty means the channel's default). */
export const withArrayField = (form: FormSpec): FormSpec =>
  form.fields.some((f) => f.key === "array") ? form : { ...form, fields: [...form.fields, ARRAY_FIELD] };

/** One step's manifest definition. */
export function stepDefinition(registry: Registry, path: string): StepDefinition {
  const form = stepForm(registry, path);
  const inputs: Record<string, StepParameter> = {};
  for (const f of form.fields) inputs[inputNameOf(f.key)] = parameterOf(f);
  for (const k of ["requester", "channel"] as const) {
    // A field of that name would be overwritten by who runs the step: a command that has one needs another name.
    if (Object.hasOwn(inputs, k)) throw new Error(`workflow step "${path}": a field is named "${k}"`);
    inputs[k] = WHO[k];
  }
  return {
    // A step people know by name ("Start a maintenance window") is titled so in Workflow Builder's list.
    title: form.title === form.path ? `/array ${form.path}` : form.title,
    description:
      `${form.summary}${form.since ? ` (arrays on REST ${form.since} or newer)` : ""}, through the same checks, confirmation or approval as typing it`.slice(
        0,
        250,
      ),
    input_parameters: inputs,
    output_parameters: OUTPUTS,
  };
}

/** manifest.yml's `functions:`: the generic step, then one per common change. */
export function workflowFunctions(registry: Registry): Record<string, StepDefinition> {
  const out: Record<string, StepDefinition> = {
    [RUN_COMMAND_STEP]: {
      title: "Run an /array command",
      description:
        "Runs a command within the step's role and the requester's, through the same checks; a change waits for the requester's confirmation",
      input_parameters: {
        command: {
          type: "string",
          title: "Command",
          description: "What follows /array, e.g. fs resize home 30T",
          is_required: true,
        },
        ...WHO,
        // A read needs no person (the step's own role applies); a change is refused without one.
        requester: { ...WHO.requester, is_required: false },
      },
      output_parameters: OUTPUTS,
    },
  };
  for (const path of WORKFLOW_CHANGES) out[stepIdOf(path)] = stepDefinition(registry, path);
  return out;
}

/**
 * The command line a step's inputs stand for, built as a submitted form's is (same order, same quoting). A
 * boolean may arrive as `true` or `"true"`; other values as strings.
 */
export function stepLine(form: FormSpec, inputs: Readonly<Record<string, unknown>>): string {
  const values: Record<string, string | boolean | undefined> = {};
  for (const f of form.fields) {
    const v = inputs[inputNameOf(f.key)];
    if (f.kind === "switch") values[f.key] = v === true || v === "true";
    else if (typeof v === "string" || typeof v === "number") values[f.key] = String(v);
  }
  return formLine(form, values);
}

/** Markdown: each step and what it asks for (docs/slack-setup.md, between its generated markers). */
export function workflowStepsMarkdown(registry: Registry): string {
  const lines: string[] = [];
  for (const [id, def] of Object.entries(workflowFunctions(registry))) {
    const asks = Object.entries(def.input_parameters)
      .filter(([k]) => k !== "requester" && k !== "channel")
      .map(([k, p]) => `\`${k}\`${p.type === "boolean" ? " (tick)" : ""}${p.is_required ? "" : "?"}`);
    lines.push(
      `- **${def.title}** (\`${id}\`): ${def.description}. Asks for ${asks.join(", ")}, the requester (filled by Slack) and the channel.`,
    );
  }
  return `${lines.join("\n")}\n`;
}
