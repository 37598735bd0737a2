/** What every Slack listener is handed: the pipeline, the effect runner's deps, and the cross-cutting parts. */
import type { RespondFn } from "@slack/bolt";
import type { Pipeline } from "../../core/pipeline-types.js";
import type { Logger } from "../../logger.js";
import type { InFlight } from "../../ops/in-flight.js";
import type { Metrics } from "../../ops/metrics.js";
import type { DeliveryDedupe } from "../dedupe.js";
import type { EffectDeps, Responder } from "../effects.js";
import type { HomePort } from "../home.js";
import type { SlackIdentity } from "../identity.js";
import type { PacedSlackClient } from "../paced-client.js";

export interface ListenerContext {
  pipeline: Pipeline;
  effects: EffectDeps;
  client: PacedSlackClient;
  identity: SlackIdentity;
  home: HomePort;
  inflight: InFlight;
  dedupe: DeliveryDedupe;
  metrics: Metrics;
  logger: Logger;
  /** First words of known commands, to label metrics without echoing what people type. */
  knownCommands: ReadonlySet<string>;
  now: () => number;
}

export function responder(respond: RespondFn): Responder {
  return async (msg) => {
    await respond(msg);
  };
}
