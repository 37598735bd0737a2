/**
 * `/array api <METHOD> <path>[?query] [json-body]`: the raw call for anything the catalogue does not phrase,
 * checked against the endpoint table and the array's negotiated version before anything is sent. Roles come from
 * the access policy (src/rest-spec/policy.ts) alone: each verb is open to the least role its method needs
 * anywhere, and the request itself is checked against its own row, query parameters included, where every
 * request passes (src/core/requests/request-guard.ts), so a raw call never needs less than the strictest command on the
 * same endpoint. A change goes through the gate as `raw_api` (the bot cannot tell what a typed body does) with
 * the exact request shown and the class the policy gives the endpoint named on the card.
 * Hand-written because it is the way past the catalogue: it takes any METHOD, path, query and body, which no
 * catalogue entry describes.
 */

import { z } from "zod";
import {
  type CommandDefinition,
  defineCommand,
  defineResource,
  type Impact,
  type RenderContext,
} from "../src/core/catalogue/define-command.js";
import { type Block, type Message, message, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { JSON_OBJECT_WIRE, wired } from "../src/core/words/arg-wire.js";
import { countOf } from "../src/core/words/units.js";
import { redact } from "../src/redact.js";
import type { HttpMethod } from "../src/rest-spec/endpoints.js";
import { leastRole, requestRule } from "../src/rest-spec/policy.js";
import { checkVersion, jsonBody, NOT_JSON, parseRaw, plannedOf } from "./api-request.js";
import { formatValue, type Item } from "./catalogue/generic/values.js";

/** Longest JSON shown inline; longer answers go along as a file. */
const INLINE_JSON = 2500;

const args = z.object({
  target: z.string().min(1).max(2000).describe("the path below /api/<version>, with ?query if any"),
  // Checked here, with the arguments, so a body that is not JSON is refused before any impact, card or store sees
  // it; the refusal quotes none of it, and the audit keeps the line with it redacted (redactCommandLine).
  body: wired(
    z
      .string()
      .max(20_000)
      .refine((t) => jsonBody(t) !== undefined, NOT_JSON),
    JSON_OBJECT_WIRE,
  )
    .optional()
    .describe("a JSON object, quoted: '{\"enabled\": false}'"),
});

interface ApiResult {
  method: HttpMethod;
  path: string;
  items: (Item & { _array?: string })[];
}

/** Items whose values are all scalars (or named references) and share one key set read well as a table. */
function uniform(items: readonly Item[]): string[] | undefined {
  if (items.length === 0) return undefined;
  const keys = Object.keys(items[0] ?? {}).filter((k) => k !== "_array");
  const same = (i: Item) => {
    const k = Object.keys(i).filter((x) => x !== "_array");
    return k.length === keys.length && k.every((x) => keys.includes(x));
  };
  const flat = (v: unknown) =>
    v === null || typeof v !== "object" || (!Array.isArray(v) && typeof (v as Item)["name"] === "string");
  if (!items.every((i) => same(i) && keys.every((k) => flat(i[k])))) return undefined;
  return keys;
}

function render(answer: ApiResult, rctx: RenderContext): Message {
  // The array's answer as data, through the one redaction: the table and the raw JSON view show no secret.
  const result = { ...answer, items: redact(answer.items) };
  const where = rctx.arrays.length > 1 ? `${rctx.arrays.length} arrays` : (rctx.arrays[0] ?? "?");
  const headline = `${result.method} ${result.path} on ${where}: ${countOf(result.items.length, "item")}`;
  const blocks: Block[] = [{ type: "header", text: headline }];
  const keys = uniform(result.items);
  const many = rctx.arrays.length > 1;
  if (keys) {
    const cols = [...(many ? ["_array"] : []), ...keys];
    const rows = result.items.map((i) =>
      Object.fromEntries(
        cols.map((c) => [c, c === "_array" ? String(i._array) : formatValue(c, i[c], undefined, rctx)]),
      ),
    );
    const table = truncatedTable(
      cols.map((c) => ({ key: c, label: c === "_array" ? "Array" : c })),
      rows,
      { limit: rctx.tableRows, filename: "api.csv", title: headline },
    );
    blocks.push(table.block);
    return message(headline, blocks, table.attachments.length ? { attachments: table.attachments } : {});
  }
  const json = JSON.stringify(many ? result.items : result.items.map(({ _array, ...rest }) => rest), null, 2);
  if (json.length <= INLINE_JSON) {
    blocks.push({ type: "code", text: json });
    return message(headline, blocks);
  }
  blocks.push({ type: "code", text: `${json.slice(0, INLINE_JSON)}\n…` });
  blocks.push({ type: "context", text: rich`The whole answer is attached as JSON.` });
  return message(headline, blocks, {
    attachments: [{ filename: "api.json", title: headline, contentType: "text/plain", content: json }],
  });
}

function readVerb(): CommandDefinition {
  return defineCommand({
    verb: "get",
    summary: "Send any GET to the array (checked against the interface first)",
    examples: [
      "api GET /blades",
      `api GET "/hardware?filter=status='unhealthy'"`,
      "api GET /arrays/eula",
      "api GET /policies/members?policy_names=daily",
    ],
    role: leastRole("GET"),
    endpoints: ["GET *"],
    // A path, not an object of one array: the same GET means the same thing everywhere, so it may fan out.
    fanOut: "safe",
    args,
    positional: ["target", "body"],
    async run(a, ctx): Promise<ApiResult> {
      const req = parseRaw("GET", a.target, a.body);
      checkVersion(req, ctx.arrayName, await ctx.array.version());
      const page = await ctx.array.get<Item>(req.path, { query: req.query });
      return {
        method: "GET",
        path: req.path,
        items: page.items.map((i) => ({ ...i, _array: ctx.arrayName })),
      };
    },
    merge: (results): ApiResult => ({
      method: "GET",
      path: results[0]?.result.path ?? "",
      items: results.flatMap((r) => r.result.items),
    }),
    render: (result, _a, rctx) => render(result, rctx),
  });
}

function writeVerb(method: "POST" | "PATCH" | "DELETE", example: string): CommandDefinition {
  return defineCommand({
    verb: method.toLowerCase(),
    summary: `Send a ${method} exactly as typed (the role its endpoint needs; approval by default)`,
    examples: [example],
    role: leastRole(method),
    endpoints: [`${method} *`],
    visibility: "in_channel",
    args,
    positional: ["target", "body"],
    async impact(a, ctx): Promise<Impact> {
      const req = parseRaw(method, a.target, a.body);
      checkVersion(req, ctx.arrayName, await ctx.array.version());
      const rule = requestRule(method, req.path, req.query);
      return {
        target: `${method} ${req.path}`,
        summary: rich`Sends this ${method} to ${ctx.arrayName} exactly as shown. The bot cannot tell what it will change.`,
        facts: [
          {
            label: "Access policy",
            value: rich`needs ${rule?.role ?? "?"}; class ${rule?.cls ?? "none"}${rule?.reason ? ` (${rule.reason})` : ""}`,
          },
        ],
        warnings: [],
        state: {},
        requests: [plannedOf(req)],
      };
    },
    destructive: () => "raw_api",
    gateClasses: ["raw_api"],
    result(responses, _a, ctx, impact): ApiResult {
      const items = (responses[0] ?? []) as Item[];
      const path = impact.requests[0]?.path ?? "";
      return { method, path, items: items.map((i) => ({ ...i, _array: ctx.arrayName })) };
    },
    render: (result, _a, rctx) => ({ ...render(result, rctx), visibility: "in_channel" }),
  });
}

export const apiResource = defineResource({
  name: "api",
  area: "Operations",
  summary: "Any REST call, checked against the interface and the array's version before it is sent",
  commands: [
    readVerb(),
    writeVerb("POST", `api POST /snmp-managers?names=trap2 '{"host": "10.21.0.97", "notification": "trap"}'`),
    writeVerb("PATCH", `api PATCH /smtp '{"relay_host": "smtp3.example.com"}'`),
    writeVerb("DELETE", "api DELETE /alert-watchers?names=storage-team@example.com"),
  ],
});
