/**
 * The `mcp` section: the MCP face for AI assistants (src/mcp). Off by default. Each client is a principal with a
 * role (globally or per array, like `access`); its bearer token comes from the environment or a file, never the
 * configuration text (files get copied around). Assistants read within their role; every change they propose
 * waits for a person's Approve (src/core/approvals/gate.ts).
 */
import { z } from "zod";
import { ROLES, type Role } from "../vocabulary.js";

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const roleSchema = z.enum(ROLES);

/**
 * One client's own limits, besides the per-principal ones every caller has (`limits`): an agent in a loop is
 * stopped at its own rate without touching anyone else's. Absent: only the per-principal limits apply.
 */
const clientLimitsSchema = z.strictObject({
  /** Tool calls per minute, sustained. */
  per_minute: z.number().min(0.1).max(60_000).optional(),
  /** Calls at once before the per-minute rate applies (default: one minute's worth). */
  burst: z.int().min(1).max(10_000).optional(),
  /** Calls of this client running at the same time. */
  concurrent: z.int().min(1).max(1000).optional(),
  /** Array requests one call may send (its request budget); the lower of this and `limits` applies. */
  array_requests_per_call: z.int().min(1).max(1_000_000).optional(),
});
export type McpClientLimits = z.output<typeof clientLimitsSchema>;

const clientSchema = z
  .strictObject({
    /** Names the principal: its user id is `mcp:<name>` in audit records and on approval cards. */
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "use lower-case letters, digits, '.', '_' or '-'"),
    token_env: z.string().regex(ENV_NAME, "must be an environment variable name").optional(),
    token_file: z.string().min(1).optional(),
    token: z
      .never({
        error:
          "inline token is not allowed (config files get copied around); put it in an environment variable " +
          "named by token_env, or in a file named by token_file",
      })
      .optional(),
    /** Its role on every array (absent: none, unless `arrays` names one). */
    role: roleSchema.optional(),
    /** Roles on named arrays, which beat `role`. */
    arrays: z.record(z.string().min(1), roleSchema).default({}),
    /**
     * A request header carrying the Slack user id of the person the assistant acts for: shown on cards ("for
     * @alice") and in audit records, and counted as a requester (they cannot approve it). It gives no right.
     */
    acts_for_header: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, "a header name")
      .optional(),
    limits: clientLimitsSchema.optional(),
  })
  .superRefine((c, ctx) => {
    const n = [c.token_env, c.token_file].filter((s) => s !== undefined).length;
    if (n !== 1)
      ctx.addIssue({
        code: "custom",
        path: ["token_env"],
        message: "give exactly one of token_env and token_file",
      });
  });
export type McpClientConfig = z.output<typeof clientSchema>;

export const mcpConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    port: z.int().min(0).max(65_535).default(3100),
    /** Loopback unless said otherwise: a remote agent reaches it through a TLS proxy. */
    host: z.string().min(1).default("127.0.0.1"),
    /**
     * The channel assistants' requests belong to: channel bindings apply to it, and their approval cards are
     * posted there (and in destructive.approvals_channel). Defaults to the approvals channel.
     */
    channel: z
      .string()
      .regex(/^[CG][A-Z0-9]+$/, "use the channel ID (C…), not its #name")
      .optional(),
    clients: z.array(clientSchema).default([]),
    /**
     * Host header values accepted besides this server's own address and loopback names on its port (a TLS proxy's
     * public name, `mcp.example.com`): any other Host is refused (DNS-rebinding defence).
     */
    allowed_hosts: z.array(z.string().min(1)).default([]),
    /** Origins a browser-based client may call from (`https://agent.example.com`); any other Origin is refused. */
    allowed_origins: z.array(z.url()).default([]),
    /** Destructive classes assistants may not even propose (eradicate, raw_api…); checked against `destructive`. */
    forbid_classes: z.array(z.string().min(1)).default([]),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.clients.forEach((c, i) => {
      if (seen.has(c.name))
        ctx.addIssue({ code: "custom", path: ["clients", i, "name"], message: `"${c.name}" is used twice` });
      seen.add(c.name);
    });
  });
export type McpConfig = z.output<typeof mcpConfigSchema>;

/** A client's role on one array: its per-array role, else its global one, else none. */
export function clientRole(c: McpClientConfig, array: string): Role | undefined {
  return Object.hasOwn(c.arrays, array) ? c.arrays[array] : c.role;
}

export interface TokenSources {
  env: Readonly<Record<string, string | undefined>>;
  readFile(path: string): string;
}

/** Token → client, read from where each client says; every missing token is one problem line (never its value). */
export function resolveMcpTokens(
  mcp: McpConfig,
  src: TokenSources,
): { tokens: Map<string, McpClientConfig>; problems: string[] } {
  const tokens = new Map<string, McpClientConfig>();
  const problems: string[] = [];
  mcp.clients.forEach((c, i) => {
    let token: string | undefined;
    if (c.token_env !== undefined) {
      const v = Object.hasOwn(src.env, c.token_env) ? src.env[c.token_env] : undefined;
      token = v?.trim();
      if (!token)
        problems.push(`mcp.clients[${i}].token_env: environment variable ${c.token_env} is not set`);
    } else if (c.token_file !== undefined) {
      try {
        token = src.readFile(c.token_file).trim();
      } catch {
        problems.push(`mcp.clients[${i}].token_file: cannot read "${c.token_file}"`);
      }
      if (token === "") problems.push(`mcp.clients[${i}].token_file: "${c.token_file}" is empty`);
    }
    if (!token) return;
    if (token.length < 16) problems.push(`mcp.clients[${i}]: the token is shorter than 16 characters`);
    else if (tokens.has(token)) problems.push(`mcp.clients[${i}]: the same token as another client`);
    else tokens.set(token, c);
  });
  return { tokens, problems };
}
