import { readFileSync } from "node:fs";
import type { App } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { RESOURCES } from "../../commands/index.js";
import { slackSectionSchema } from "../../src/config/slack.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import {
  WORKFLOW_CHANGES,
  workflowFunctions,
  workflowStepsMarkdown,
} from "../../src/core/catalogue/workflow-steps.js";
import { registerCommand } from "../../src/slack/listeners/command.js";
import type { ListenerContext } from "../../src/slack/listeners/context.js";
import { registerEvents } from "../../src/slack/listeners/events.js";
import { registerInteractions } from "../../src/slack/listeners/interactions.js";
import { registerWorkflow } from "../../src/slack/listeners/workflow.js";
import { BOT_SCOPES } from "../../src/slack/scopes.js";

interface Manifest {
  display_information: { name: string; description: string };
  features: {
    app_home: { home_tab_enabled: boolean; messages_tab_enabled: boolean };
    bot_user: { display_name: string };
    slash_commands: { command: string; description: string; usage_hint?: string; url?: string }[];
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] } };
  functions?: Record<
    string,
    { title: string; input_parameters: Record<string, unknown>; output_parameters: Record<string, unknown> }
  >;
  settings: {
    org_deploy_enabled?: boolean;
    event_subscriptions: { bot_events: string[]; request_url?: string };
    interactivity: { is_enabled: boolean; request_url?: string };
    socket_mode_enabled: boolean;
  };
}

const manifest = parse(readFileSync(new URL("../../manifest.yml", import.meta.url), "utf8")) as Manifest;

/** Records what the listeners register on a Bolt app (a stand-in for App's registration methods). */
function registrations() {
  const seen = {
    commands: [] as string[],
    events: [] as string[],
    actions: 0,
    views: [] as string[],
    functions: [] as string[],
  };
  const app = {
    command: (name: string) => void seen.commands.push(name),
    event: (name: string) => void seen.events.push(name),
    action: () => void seen.actions++,
    view: (id: string) => void seen.views.push(id),
    function: (id: string) => void seen.functions.push(id),
  } as unknown as App;
  const ctx = {} as ListenerContext;
  const defaults = slackSectionSchema.parse({ mode: "socket", botToken: "xoxb-x", appToken: "xapp-x" });
  registerCommand(app, defaults.command, ctx);
  registerInteractions(app, ctx);
  registerEvents(app, ctx);
  registerWorkflow(app, ctx);
  return seen;
}

describe("manifest.yml", () => {
  const seen = registrations();

  it("declares the slash command the app registers, with a description and usage hint", () => {
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(seen.commands);
    const cmd = manifest.features.slash_commands[0];
    expect(cmd?.description.length).toBeGreaterThan(10);
    expect(cmd?.usage_hint).toContain("help");
  });

  it("declares exactly the workflow steps the app handles, on an org-ready app", () => {
    expect(Object.keys(manifest.functions ?? {})).toEqual(seen.functions);
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    const step = manifest.functions?.["run_array_command"];
    expect(Object.keys(step?.input_parameters ?? {})).toEqual(["command", "requester", "channel"]);
    // The person behind a run is one Slack fills in (user_context), never a user id a builder can type.
    const typeOf = (p: unknown) => (p as { type?: string } | undefined)?.type;
    expect(typeOf(step?.input_parameters["requester"])).toBe("slack#/types/user_context");
    for (const f of Object.values(manifest.functions ?? {}))
      expect(Object.values(f.input_parameters).map(typeOf)).not.toContain("slack#/types/user_id");
    expect(Object.keys(step?.output_parameters ?? {})).toEqual(["status", "result", "request_id"]);
  });

  it("declares the workflow steps generated from the forms, as generated (npm run gen:workflow-steps)", () => {
    const registry = createRegistry(RESOURCES);
    // Every listed change is a command with a form, so each step has inputs to fill.
    for (const path of WORKFLOW_CHANGES) expect(registry.all().some((e) => e.path === path)).toBe(true);
    expect(manifest.functions).toEqual(workflowFunctions(registry));
    const doc = readFileSync(new URL("../../docs/slack-setup.md", import.meta.url), "utf8");
    expect(doc).toContain(workflowStepsMarkdown(registry));
  });

  it("uses only the parameter types Slack's manifest allows for functions, each with a title and is_required", () => {
    const types = new Set([
      "string",
      "boolean",
      "integer",
      "slack#/types/user_id",
      "slack#/types/user_context",
      "slack#/types/channel_id",
    ]);
    for (const [id, f] of Object.entries(manifest.functions ?? {})) {
      expect(id).toMatch(/^[a-z0-9_]{1,100}$/);
      expect(f.title.length).toBeGreaterThan(0);
      for (const params of [f.input_parameters, f.output_parameters])
        for (const [name, p] of Object.entries(params as Record<string, Record<string, unknown>>)) {
          expect(name).toMatch(/^[a-z0-9_]+$/);
          expect(types.has(String(p["type"]))).toBe(true);
          expect(typeof p["title"]).toBe("string");
          expect(typeof p["is_required"]).toBe("boolean");
        }
      expect(f.input_parameters).toMatchObject({
        requester: { type: "slack#/types/user_context" },
        channel: { type: "slack#/types/channel_id", is_required: true },
      });
    }
  });

  it("subscribes to exactly the events the app listens to", () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual([...seen.events].sort());
  });

  it("enables interactivity (buttons, the typed-name and secret modals) and the Home tab", () => {
    expect(seen.actions).toBeGreaterThan(0);
    expect(seen.views).toEqual(["array_prompt", "array_secret"]);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.features.app_home.messages_tab_enabled).toBe(true);
  });

  it("is for Socket Mode: no request URLs", () => {
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.interactivity.request_url).toBeUndefined();
    expect(manifest.settings.event_subscriptions.request_url).toBeUndefined();
    expect(manifest.features.slash_commands.every((c) => c.url === undefined)).toBe(true);
  });

  it("asks for the least scopes: exactly those the called methods need, no user scopes, no history", () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(BOT_SCOPES);
    expect(manifest.oauth_config.scopes.user).toBeUndefined();
    expect(
      manifest.oauth_config.scopes.bot.some((s) => s.endsWith(":history") || s === "chat:write.public"),
    ).toBe(false);
  });

  it("stays within Slack's manifest limits", () => {
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    expect(manifest.display_information.description.length).toBeLessThanOrEqual(140);
    expect(manifest.features.bot_user.display_name).toMatch(/^[a-z0-9._-]{1,80}$/);
    for (const c of manifest.features.slash_commands) {
      expect(c.command.length).toBeLessThanOrEqual(32);
      expect(c.usage_hint?.length ?? 0).toBeLessThanOrEqual(1000);
    }
  });

  it("the setup guide gives the HTTP-mode request URL the receiver serves", () => {
    const doc = readFileSync(new URL("../../docs/slack-setup.md", import.meta.url), "utf8");
    const { eventsPath } = slackSectionSchema.parse({
      mode: "http",
      botToken: "xoxb-x",
      signingSecret: "12345678",
    });
    expect(doc).toContain(`https://<your-host>${eventsPath}`);
    for (const v of ["SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_API_URL", "PORT"]) {
      expect(doc).toContain(v);
    }
  });
});
