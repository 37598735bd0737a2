/**
 * The load test's approvals: an admin asks for an eradication, another approves it. Most approvers type the name
 * in the card's box and click Approve once; one in ten leaves the box empty and types it in the dialog the click
 * opens. Each leg is timed, and approvals that met a Slack 429 are told from the others.
 */
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { epoch, type TracedApproval } from "./approve-trace.js";
import { type ApproveClick, answerKind } from "./failover.js";
import type { Kind } from "./run-load.js";
import { buttonValue, type SlackDriver } from "./slack-driver.js";
import type { SlackStub } from "./slack-stub.js";

/** The share of approvers who leave the card's box empty and type the name in the dialog the click opens. */
const DIALOG_SHARE = 0.1;

export interface ApprovalDeps {
  stub: SlackStub;
  slack: SlackDriver;
  random: () => number;
  pick: <T>(xs: readonly T[]) => T;
  admins: readonly string[];
  /** File systems destroyed and confirmed, waiting for an approved eradication. */
  destroyed: { array: string; name: string }[];
  timed: <T>(kind: Kind, f: () => Promise<T>) => Promise<T>;
  within: <T>(p: Promise<T>, what: string) => Promise<T>;
  /** Each approve click, when and what it was answered (the failover mode counts those in its gap). */
  clicks?: ApproveClick[];
}

export function approvals(d: ApprovalDeps) {
  const { stub, random, pick, admins, destroyed, timed, within } = d;
  const { command, click, submit } = d.slack;
  /**
   * An approval: most approvers type the name in the card's box and click Approve once (click to card replaced);
   * one in ten leaves the box empty and types it in the dialog the click opens (click to dialog, then submit to
   * card updated).
   */
  const approveSteps = {
    inCard: [] as number[],
    dialog: [] as number[],
    carriedOut: [] as number[],
    unthrottled: [] as number[],
    /** Each timed approval's array, click and answer (epoch ms), for approve-trace.ts. */
    traced: [] as TracedApproval[],
  };
  let approvalsNotCarriedOut = 0;
  /**
   * One approval; `held` (the failover mode): its card is asked for now, clicked once `until` settles (the
   * primary killed), and clicked again once `again` settles (every replica ready) if answered "try again".
   * `armed` is called once its card is in hand, or once it ended without one, whichever comes first: the primary
   * is killed only then, however long the card took on a busy machine.
   */
  const approval = async (held?: {
    until: Promise<void>;
    again: Promise<void>;
    armed: () => void;
  }): Promise<void> => {
    const target = destroyed.splice(Math.floor(random() * destroyed.length), 1)[0];
    if (!target) {
      held?.armed();
      return;
    }
    const requester = pick(admins);
    const approver = pick(admins.filter((a) => a !== requester));
    const mentions = new RegExp(`\\b${target.name}\\b`);
    const viaDialog = held === undefined && random() < DIALOG_SHARE;
    // Every wait below stops listening when this approval ends, whichever way it ends.
    const done = new AbortController();
    try {
      const card = stub.waitForCall(
        (c) =>
          c.method === "chat.postMessage" &&
          buttonValue(c.args, ACTIONS.approve) !== undefined &&
          mentions.test(JSON.stringify(c.args)),
        done.signal,
      );
      const ack = await timed("eradicate", () =>
        command(requester, `fs eradicate ${target.name} --array ${target.array}`),
      );
      // Answered "Paused … try again" (no writable Redis primary in the failover mode): no card comes.
      if (answerKind(ack) === "paused: try again") return;
      if (buttonValue(ack, ACTIONS.approve) === undefined && !JSON.stringify(ack).includes("approval"))
        return;
      const posted = await within(card, "the approval card");
      const pending = buttonValue(posted.args["blocks"], ACTIONS.approve);
      if (!pending) throw new Error("the approval card has no Approve button");
      const opened = stub.waitForCall(
        (c) => c.method === "views.open" && JSON.stringify(c.args).includes(pending),
        done.signal,
      );
      const updated = stub.waitForCall(
        (c) => c.method === "chat.update" && c.args["ts"] === posted.ts,
        done.signal,
      );
      // Slack's own 429s on this approval's dialog or card update: the bot must wait the Retry-After (1 s).
      let throttled = false;
      stub.onThrottled(
        (c) =>
          (c.method === "views.open" && JSON.stringify(c.args).includes(pending)) ||
          (c.method === "chat.update" && c.args["ts"] === posted.ts),
        () => {
          throttled = true;
        },
        done.signal,
      );
      // A held approval (the failover mode) has its card now and is clicked once the primary is killed.
      if (held) {
        held.armed();
        await held.until;
      }
      const t0 = performance.now();
      const clickedAt = epoch();
      // The click's answers through its response_url: the card replaced (replace_original), an announcement in
      // the channel, or a private answer: what a second click is told ("already approved", "being carried out"), or why nothing was done.
      const clickOnce = async () => {
        let replaced: (body: Record<string, unknown>) => void = () => {};
        let refused: (body: Record<string, unknown>) => void = () => {};
        const cardReplaced = new Promise<Record<string, unknown>>((r) => {
          replaced = r;
        });
        const answeredInstead = new Promise<Record<string, unknown>>((r) => {
          refused = r;
        });
        const onAnswer = (body: Record<string, unknown>) => {
          if (body["replace_original"] === true) replaced(body);
          // An announcement in the channel ("Eradicated …") goes with a carried-out approval.
          else if (
            body["response_type"] !== "in_channel" &&
            !/already|being carried out/i.test(JSON.stringify(body))
          )
            refused(body);
        };
        // Double clicks: the same person clicking Approve twice.
        const clicks = random() < 0.33 ? 2 : 1;
        await Promise.all(
          Array.from({ length: clicks }, () =>
            click(
              approver,
              ACTIONS.approve,
              pending,
              posted.ts,
              false,
              "maybe",
              onAnswer,
              done.signal,
              viaDialog ? undefined : target.name,
            ),
          ),
        );
        const first = await within(
          Promise.race([
            opened.then((call) => ({ open: call, ended: false })),
            cardReplaced.then(() => ({ open: undefined, ended: true })),
            updated.then(() => ({ open: undefined, ended: true })),
            answeredInstead.then((body) => ({ open: undefined, ended: false, body })),
          ]),
          "views.open, an answer or a card update after an Approve click",
        );
        const answer =
          "body" in first ? answerKind(first.body) : first.ended ? "carried out" : "dialog opened";
        return { first, cardReplaced, answer };
      };
      if (held) {
        // Not timed: the click waits for the kill by design. Answered "try again", it is clicked again once
        // every replica is ready, as a person would.
        const gap = await clickOnce();
        d.clicks?.push({ at: t0, answer: gap.answer, held: true });
        if (gap.answer !== "paused: try again") return;
        await held.again;
        const again = await clickOnce();
        d.clicks?.push({ at: performance.now(), answer: again.answer, again: true });
        if (again.answer !== "carried out") approvalsNotCarriedOut++;
        return;
      }
      await timed("approve", async () => {
        const { first, cardReplaced, answer } = await clickOnce();
        d.clicks?.push({ at: t0, answer });
        if (first.ended && !viaDialog) {
          approveSteps.inCard.push(performance.now() - t0);
          return;
        }
        const open = first.open;
        if (open === undefined) {
          approvalsNotCarriedOut++;
          return;
        }
        const t1 = performance.now();
        approveSteps.dialog.push(t1 - t0);
        const view = open.args["view"] as { private_metadata: string };
        await submit(approver, view.private_metadata, target.name);
        // Replaced through the response_url of the click that opened the dialog, or by chat.update.
        await within(Promise.race([updated, cardReplaced]), "the card replaced after an approval");
        approveSteps.carriedOut.push(performance.now() - t1);
      });
      if (!throttled) approveSteps.unthrottled.push(performance.now() - t0);
      approveSteps.traced.push({ array: target.array, click: clickedAt, answered: epoch(), throttled });
    } finally {
      held?.armed();
      done.abort();
    }
  };
  return { approval, steps: approveSteps, notCarriedOut: () => approvalsNotCarriedOut };
}
