/**
 * Running a Workflow Builder step as a workflow would: a signed `function_executed` event through Bolt's real
 * receiver, then the step's completeSuccess/completeError call as the fake Slack Web API recorded it.
 */
import { expect } from "vitest";
import { eventCallback } from "../../fakes/payloads.js";
import type { Harness } from "./harness.js";

let seq = 0;

/** Sends the event for step `callbackId` with `inputs`; returns its execution id. */
export async function runWorkflowStep(
  h: Harness,
  callbackId: string,
  inputs: Record<string, unknown>,
): Promise<string> {
  const n = ++seq;
  const id = `Fx${n}`;
  const acked = await h.driver.event(
    eventCallback({
      type: "function_executed",
      function: {
        id: `Fn${n}`,
        callback_id: callbackId,
        title: callbackId,
        type: "app",
        input_parameters: [],
        output_parameters: [],
        app_id: "A1",
        date_created: 0,
        date_updated: 0,
        date_deleted: 0,
      },
      inputs,
      function_execution_id: id,
      workflow_execution_id: `Wx${n}`,
      event_ts: `${Date.now() / 1000}`,
      bot_access_token: "xwfp-test-token",
    }),
  );
  expect(acked.status).toBe(200);
  return id;
}

/** The step's completion call, when the bot makes it. */
export const stepCompleted = (
  h: Harness,
  id: string,
  method: "functions.completeSuccess" | "functions.completeError",
) => h.fake.waitForCall(method, (c) => c.args["function_execution_id"] === id);

/** A completion's outputs (the Web API client sends them as JSON text). */
export const outputsOf = (c: { args: Record<string, unknown> }) =>
  (typeof c.args["outputs"] === "string" ? JSON.parse(c.args["outputs"]) : c.args["outputs"]) as Record<
    string,
    string
  >;

/** A `user_context` input as Slack fills it (from the person who used the workflow): `{ id, secret }`. */
export const vouched = (id: string) => ({ id, secret: `ctx-secret-${id}` });
