#!/usr/bin/env node
// Generates the catalogue nouns of the REST 2.x operations no 1.x endpoint continues, from the 2.x facts in
// ../shared/reference/flashblade-rest-2x/ (endpoints.tsv, mapping-1x-2x.tsv, models.tsv): one noun per path whose
// operations are all 2.x-only, its words from the path (family → noun words, `policies` → `policy`), its verbs from
// the methods (derive.ts reads them from the operation table), its selectors from the `*_names` parameters, its
// area from the spec's tag, and an example per verb naming the objects the demo seeds (src/simulator/scenarios/
// demo-2x.ts creates `<noun>-demo` and `<noun>-old` on every such path) and a writable field of the body model.
// Words, roles, destructive classes and examples a person chose live in commands/catalogue/overrides-2x.ts.
// Also writes src/rest-spec/policy-rules-2x.ts: the 2.x-only changes of an operator's areas, so the one access
// policy gives them the role the catalogue does.
//
//   node tools/gen-catalogue-2x.mjs [--2x dir]          rewrites both files
//   node tools/gen-catalogue-2x.mjs --check [--2x dir]  exits 1 when a committed file is not current
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "commands", "catalogue", "catalogue-2x.data.ts");
const OUT_POLICY = join(ROOT, "src", "rest-spec", "policy-rules-2x.ts");
const IN_SHARED = join("shared", "reference", "flashblade-rest-2x");

function findFacts() {
  for (let dir = dirname(ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, IN_SHARED);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return resolve(ROOT, "..", IN_SHARED);
  }
}

function tsv(file) {
  const [head, ...rows] = readFileSync(file, "utf8").split("\n").filter(Boolean);
  const keys = head.split("\t");
  return rows.map((r) => Object.fromEntries(r.split("\t").map((v, i) => [keys[i], v])));
}

/** Areas by the spec's tag: what a person looks for them under in help. */
const AREA_BY_TAG = [
  [/WORM|Legal Holds|Snapshot/, "Protection"],
  [/Object Store|S3 Export|Buckets|Bucket|for Object Store/, "Object store"],
  [
    /SSO|Public Keys|SSH|Password|KMIP|RDL|Management Access|Management Authentication|TLS|Sessions|Roles|Resource Accesses|Realms|Admin|Verification Keys|Authorization/,
    "Identity and security",
  ],
  [/Network Access|Servers|Network|Subnets|Hardware Connectors/, "Network"],
  [/Fleets|Remote Arrays|Remote Realms|Realm Connections|Array Connections|Replica/, "Replication"],
  [/Usage|Workloads|Presets|Resiliency|Storage Classes|Audit/, "Insight"],
  [/NFS|SMB|QoS|Quota|File System|Storage Class Tiering|Data Eviction|Policies \(All\)/, "Storage"],
];
const areaOf = (tag) => AREA_BY_TAG.find(([re]) => re.test(tag))?.[1] ?? "Operations";
/** Areas whose changes an operator makes (derive.ts MUTATING_ROLE): their 2.x-only changes join the policy's list. */
const OPERATOR_AREAS = new Set(["Storage", "Protection", "Replication", "Object store", "Insight"]);

const IRREGULAR = {
  policies: "policy",
  statuses: "status",
  diagnostics: "diagnostics",
  settings: "settings",
};
function singular(word) {
  if (IRREGULAR[word]) return IRREGULAR[word];
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(sses|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (/(ss|us)$/.test(word) || !word.endsWith("s")) return word;
  return word.slice(0, -1);
}
/** `/qos-policies/members` → "qos-policy member"; `/arrays/factory-reset-token` → "array factory-reset-token". */
const nounOf = (path) => path.split("/").filter(Boolean).map(singular).join(" ");

function paramsOf(text) {
  const out = {};
  for (const tok of text.split(",").filter(Boolean)) {
    const m = /^([a-z0-9_]+)(\[\])?(?:\((\w+)\))?$/.exec(tok);
    if (m) out[m[1]] = m[2] ? "list" : (m[3] ?? "string");
  }
  return out;
}

/** The `*_names` parameters that select objects, the relation's policy first. */
function selectorsOf(params) {
  const names = Object.keys(params).filter(
    (k) => k.endsWith("_names") && params[k] === "list" && !/^(context|source|target|to_\w+)_names$/.test(k),
  );
  names.sort((a, b) => (a === "policy_names" ? -1 : b === "policy_names" ? 1 : a.localeCompare(b)));
  return names.map((param) => ({ param, label: param.replace(/_names$/, "").replaceAll("_", "-") }));
}

/**
 * A value for an integer option in the unit the catalogue reads it in (commands/catalogue/catalogue-2x.ts,
 * UNIT_BY_NAME): a duration, a size, or a plain count.
 */
function intExample(field) {
  if (/bytes_per_sec$/.test(field)) return "1M";
  if (/_per_sec$/.test(field)) return "1";
  if (
    /(_in_ms|_ms|retention|timeout|duration|_ttl|period|interval|_delay|frequency|time_remaining)$/.test(
      field,
    )
  )
    return "1h";
  if (/(bytes|_size|^size|capacity|provisioned|quota_limit)$/.test(field)) return "1G";
  return "1";
}

/** The first settable scalar of a body model (models.tsv), as an example option. */
function exampleField(models, body) {
  const fields = models.get(body) ?? [];
  const pick = (test) => fields.find((f) => !f.readOnly && !f.last && test(f));
  const secretish = /password|passphrase|secret|private_key|token/;
  const ok = (f) => !secretish.test(f.property) && f.property !== "name" && f.property !== "id";
  const bool = pick((f) => ok(f) && f.type === "boolean");
  if (bool) return `--${bool.property.replaceAll("_", "-")}`;
  const en = pick((f) => ok(f) && f.type === "string" && f.enum);
  if (en) return `--${en.property.replaceAll("_", "-")} ${en.enum.split(",")[0]}`;
  const int = pick((f) => ok(f) && f.type.startsWith("integer"));
  if (int) return `--${int.property.replaceAll("_", "-")} ${intExample(int.property)}`;
  const str = pick((f) => ok(f) && f.type === "string");
  if (str) return `--${str.property.replaceAll("_", "-")} demo`;
  // A list of words or a reference by name (a KMIP server's URIs, a server's DNS): one word.
  const ref = /^(array<string>|ref:_reference\w*|array<ref:_reference\w*>)$/;
  const named = pick((f) => ok(f) && ref.test(f.type));
  if (named) return `--${named.property.replaceAll("_", "-")} demo`;
  // One level of a nested object, as fields.ts flattens it: TgroupPatch's `topology_group.name`.
  for (const f of fields.filter((f) => !f.readOnly && !f.last && ok(f) && f.type.startsWith("ref:"))) {
    const sub = (models.get(f.type.slice(4)) ?? []).find(
      (x) => !x.readOnly && !x.last && x.type === "string",
    );
    if (sub) return `--${f.property.replaceAll("_", "-")}-${sub.property.replaceAll("_", "-")} demo`;
  }
  return undefined;
}

export function render(dir) {
  const endpoints = tsv(join(dir, "endpoints.tsv")).filter((r) => r.path.includes("<ver>") && !r.last);
  const continued = new Set(
    tsv(join(dir, "mapping-1x-2x.tsv"))
      .filter((r) => r.path_2x)
      .map((r) => `${r.method_2x} ${r.path_2x}`),
  );
  const models = new Map();
  for (const r of tsv(join(dir, "models.tsv"))) {
    if (!models.has(r.schema)) models.set(r.schema, []);
    models.get(r.schema).push(r);
  }
  const byPath = new Map();
  for (const r of endpoints) {
    const path = r.path.replace("/api/<ver>", "");
    if (!byPath.has(path)) byPath.set(path, []);
    byPath.get(path).push({ ...r, path, old: continued.has(`${r.method} ${r.path}`) });
  }
  const nouns = [];
  const operator = [];
  for (const [path, ops] of [...byPath].sort(([a], [b]) => a.localeCompare(b))) {
    // A path 1.x has keeps its 1.x noun; the 2.x-only methods beside them are left to that noun.
    if (ops.some((o) => o.old)) continue;
    const by = Object.fromEntries(ops.map((o) => [o.method, o]));
    const tag = ops[0].tag.split(",")[0];
    const area = areaOf(tag);
    const noun = nounOf(path);
    const all = Object.fromEntries(ops.flatMap((o) => Object.entries(paramsOf(o.params))));
    const select = selectorsOf(all);
    const relation = select.some((s) => s.param === "member_names");
    const named = "names" in paramsOf(by.GET?.params ?? by.PATCH?.params ?? by.DELETE?.params ?? "");
    const sel = named ? [{ param: "names", label: "name" }, ...select] : select;
    // The objects src/simulator/scenarios/demo-2x.ts seeds: `<last segment>-demo|old`, or by the other selectors.
    const last = path.split("/").at(-1);
    const word = (s, which) => (s.param === "names" ? `${last}-${which}` : `${s.label}-${which}`);
    const examples = {};
    const createArgs = (by.POST ? selectorsOf(paramsOf(by.POST.params)) : []).map((s) => word(s, "new"));
    if ("names" in paramsOf(by.POST?.params ?? "")) createArgs.unshift(`${last}-new`);
    // A show needs every selector its GET takes but `names` (which alone picks the object, derive.ts): a
    // membership's policy and member both, named as the demo seeds them.
    if (by.GET && named) examples.show = `${last}-demo`;
    else if (by.GET) {
      const words = sel.filter((s) => s.param in paramsOf(by.GET.params)).map((s) => word(s, "demo"));
      if (words.length) examples.show = words.join(" ");
    }
    if (by.POST) examples.create = createArgs.join(" ");
    if (by.PATCH) {
      const field = exampleField(models, by.PATCH.body);
      const words = sel.filter((s) => s.param in paramsOf(by.PATCH.params)).map((s) => word(s, "demo"));
      if (field) examples.update = [...words, field].join(" ");
      else if (!by.PATCH.body) examples.update = words.join(" ");
    }
    if (by.PUT)
      examples.replace = sel
        .filter((s) => s.param in paramsOf(by.PUT.params))
        .map((s) => word(s, "demo"))
        .join(" ");
    if (by.DELETE)
      examples.delete = sel
        .filter((s) => s.param in paramsOf(by.DELETE.params))
        .map((s) => word(s, "old"))
        .join(" ");
    nouns.push({
      noun,
      area,
      summary: `${tag} (REST ${ops.map((o) => o.first).sort()[0]}+): ${path}`,
      path,
      ...(relation ? { verbs: { create: "add", delete: "remove" } } : {}),
      ...(sel.length ? { select: sel } : {}),
      examples,
    });
    if (OPERATOR_AREAS.has(area))
      for (const o of ops) if (o.method !== "GET") operator.push(`${o.method} ${o.path}`);
  }
  const head = (what) =>
    `// Generated by tools/gen-catalogue-2x.mjs from ../shared/reference/flashblade-rest-2x/{endpoints,mapping-1x-2x,models}.tsv:\n// ${what}. Do not edit by hand; words a person chose go in commands/catalogue/overrides-2x.ts.\n\n`;
  const data =
    head("one catalogue noun per path whose operations only REST 2.x has") +
    `import type { Generated2x } from "./catalogue-2x.js";\n\nexport const GENERATED_2X: readonly Generated2x[] = ${JSON.stringify(nouns)};\n`;
  const policy =
    head(
      "the 2.x-only changes of the areas an operator changes (Storage, Protection, Replication, Object store, Insight)",
    ) + `export const OPERATOR_CHANGES_2X: readonly string[] = ${JSON.stringify(operator.sort())};\n`;
  return { data, policy };
}

/** Formats as `biome check --write` would, so the result equals the committed (linted) file. */
function format(text, out) {
  const biome = join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");
  return execFileSync(process.execPath, [biome, "format", `--stdin-file-path=${out}`], {
    input: text,
    encoding: "utf8",
  });
}

const args = process.argv.slice(2);
const check = args.includes("--check");
const at = args.indexOf("--2x");
const dir = at >= 0 ? args[at + 1] : findFacts();
const { data, policy } = render(dir);
let stale = false;
for (const [out, text] of [
  [OUT, data],
  [OUT_POLICY, policy],
]) {
  const formatted = format(text, out);
  const current = existsSync(out) ? readFileSync(out, "utf8") : "";
  if (check) {
    if (current !== formatted) {
      stale = true;
      console.log(`${out} is not current: run node tools/gen-catalogue-2x.mjs (${dir})`);
    }
  } else writeFileSync(out, formatted);
}
if (check && !stale) console.log(`the 2.x catalogue is current (${dir})`);
if (stale) process.exit(1);
