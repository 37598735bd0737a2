/**
 * A verb whose body is one JSON document typed as an option (a role's IAM trust policy: `--document '{…}'`):
 * parsed, checked by the document's own schema once at the boundary, and sent as the whole body. JSON.parse's
 * message quotes the text, so a refusal says only that it is not JSON. Also the field of a verb whose body is a
 * secret file (a keytab), asked in the private dialog.
 */
import { z } from "zod";
import { wired } from "../../../src/core/words/arg-wire.js";
import type { DocumentOption } from "../spec.js";
import type { FieldDef } from "./fields.js";

/** The field of a verb whose body is one JSON document. */
export function documentField(d: DocumentOption): FieldDef {
  const model = { type: "json", required: true };
  const key = d.option.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return { path: [d.field], key, option: d.option, type: "json", model, document: d };
}

/** The field of a verb that uploads a secret file: a secret, so its option is a flag and its value asked privately. */
export function secretFileField(part: string): FieldDef {
  const key = part.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const option = part.replaceAll("_", "-");
  return {
    path: [part],
    key,
    option,
    type: "str",
    model: { type: "file", required: true },
    secret: true,
    file: true,
  };
}

export function documentSchema(d: DocumentOption): z.ZodType {
  const parsed = z.string().transform((v, ctx) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: `not JSON: quote the whole document, '{"key": "value"}'` });
      return z.NEVER;
    }
  });
  // A face that sends JSON values (MCP) is offered the document's own shape, and sends it on as JSON text.
  const { $schema: _, ...shape } = z.toJSONSchema(d.schema, { io: "input", unrepresentable: "any" });
  const wire = {
    json: shape,
    word: (v: unknown) => (typeof v === "object" && v !== null ? JSON.stringify(v) : undefined),
  };
  return wired(parsed.pipe(d.schema), wire).optional().describe(d.help);
}
