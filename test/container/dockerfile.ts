/** Reads the parts of the Dockerfile the container test replays: stages, RUN lines, ENV, USER, CMD, HEALTHCHECK. */

export interface Stage {
  name: string;
  from: string;
  instructions: { op: string; args: string }[];
}

export function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of logical) {
    const m = /^(\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = (m[1] ?? "").toUpperCase();
    const args = m[2] ?? "";
    if (op === "FROM") {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args);
      stages.push({ name: f?.[2] ?? `stage${stages.length}`, from: f?.[1] ?? "", instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op, args });
    }
  }
  return stages;
}

/** `["node", "x.js"]` → argv. */
export function execForm(args: string): string[] {
  const json = args.replace(/^.*?(\[.*\])\s*$/, "$1");
  return JSON.parse(json) as string[];
}

export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((x) => x.op === "ENV")) {
    for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
      env[m[1] ?? ""] = (m[2] ?? "").replace(/^"|"$/g, "");
  }
  return env;
}
