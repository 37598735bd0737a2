/**
 * A small implementation of the Pipeline interface for transport tests: a few commands (listing, chart,
 * slow, destroy/eradicate with approval) and an approval flow that authorises every click through the
 * IdentityPort. It is a stand-in for the interface, not a copy of src/core's pipeline.
 */

import type {
  ClickInput,
  CommandInput,
  Effect,
  IdentityPort,
  MessageRef,
  Pipeline,
} from "../../../src/core/context/pipeline-types.js";
import { type Block, type Message, rich } from "../../../src/core/presentation/message.js";

export const APPROVE = "test.approve";
export const DENY = "test.deny";
export const APPROVERS = "SAPPROVERS";

interface Pending {
  id: string;
  requester: string;
  target: string;
  typed: boolean;
  approvals: string[];
  refs: MessageRef[];
  state: "open" | "executed" | "denied" | "expired" | "voided";
  expiresAt: number;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export class TestPipeline implements Pipeline {
  readonly commands: CommandInput[] = [];
  readonly clicks: ClickInput[] = [];
  readonly executed: string[] = [];
  readonly pending = new Map<string, Pending>();
  /** `slow` waits on this; `slowStarted` resolves when it begins. */
  private slowGate = deferred();
  private slowBegan = deferred();
  slowFinished = false;
  private seq = 0;

  constructor(
    private readonly identity: IdentityPort,
    private readonly now: () => number = Date.now,
  ) {}

  get slowStarted(): Promise<void> {
    return this.slowBegan.promise;
  }

  releaseSlow(): void {
    this.slowGate.resolve();
  }

  async handleCommand(input: CommandInput): Promise<Effect[]> {
    this.commands.push(input);
    const words = input.text.trim().split(/\s+/);
    const isPublic = words.includes("--public");
    const args = words.filter((w) => w !== "--public");
    const visibility = isPublic ? "in_channel" : "ephemeral";
    switch (args[0]) {
      case "slow":
        this.slowBegan.resolve();
        await this.slowGate.promise;
        this.slowFinished = true;
        return [reply("slow answer", visibility)];
      case "list":
        return [{ kind: "reply", message: listing(Number(args[1] ?? 3), visibility) }];
      case "chart":
        return [{ kind: "reply", message: chart(visibility) }];
      case "destroy":
      case "eradicate":
        return this.request(input, args[1] ?? "fs1", args[0] === "eradicate");
      case "fail":
        throw new Error("pipeline exploded");
      default:
        return [reply(`unknown: ${input.text}`, visibility)];
    }
  }

  private request(input: CommandInput, target: string, typed: boolean): Effect[] {
    this.seq += 1;
    const p: Pending = {
      id: `P${this.seq}`,
      requester: input.actor.userId,
      target,
      typed,
      approvals: [],
      refs: [],
      state: "open",
      expiresAt: this.now() + 15 * 60_000,
    };
    this.pending.set(p.id, p);
    return [
      {
        kind: "post",
        channelId: input.actor.channelId,
        message: card(p, "Waiting for approval"),
        trackPending: p.id,
      },
      { kind: "reply", message: { text: `Request ${p.id} posted for approval.`, blocks: [] } },
    ];
  }

  async handleClick(input: ClickInput): Promise<Effect[]> {
    this.clicks.push(input);
    const p = this.pending.get(input.value);
    if (p === undefined) return [reply("That request no longer exists.")];
    const restricted = await this.identity.isRestricted(input.actor.userId);
    const groups = await this.identity.groupsOf(input.actor.userId);
    // Re-read after the awaits: another click may have closed the request meanwhile.
    if (p.state !== "open") return [reply(`This request is already ${p.state}.`)];
    if (input.actionId === DENY) {
      if (restricted || !groups.includes(APPROVERS)) return [reply("Only approvers can deny.")];
      p.state = "denied";
      return this.updates(p, `Denied by ${input.actor.displayName ?? input.actor.userId}`);
    }
    if (input.actionId !== APPROVE) return [reply("Unknown action.")];
    if (input.actor.userId === p.requester) return [reply("You cannot approve your own request.")];
    if (restricted || !groups.includes(APPROVERS)) return [reply("You are not an approver for this array.")];
    if (p.typed && input.typedText === undefined) {
      // As the real pipeline's: the dialog comes first, the check that the request can still happen follows.
      // A target named gone-* turns out not to be able to happen.
      const recheck = p.target.startsWith("gone-")
        ? Promise.resolve().then(() => {
            p.state = "voided";
            return this.updates(p, `Not run: ${p.target} is not destroyed any more. Nothing was changed.`);
          })
        : Promise.resolve([]);
      return [
        {
          kind: "prompt",
          pendingId: p.id,
          title: "Confirm eradication",
          label: `Type ${p.target} to confirm`,
          actionId: APPROVE,
          recheck,
        },
      ];
    }
    if (p.typed && input.typedText !== p.target) return [reply("The name did not match. Nothing was done.")];
    p.approvals.push(input.actor.userId);
    p.state = "executed";
    this.executed.push(p.target);
    return this.updates(p, `Executed, approved by ${input.actor.displayName ?? input.actor.userId}`);
  }

  private updates(p: Pending, status: string): Effect[] {
    return p.refs.map((ref) => ({ kind: "update", ref, message: card(p, status) }));
  }

  async attachMessage(pendingId: string, ref: MessageRef): Promise<void> {
    this.pending.get(pendingId)?.refs.push(ref);
  }

  /** Effects the next start-up recovery returns (tests of the Slack wiring set them). */
  recovered: Effect[] = [];

  async recoverInterrupted(): Promise<Effect[]> {
    return this.recovered.splice(0);
  }

  async sweepExpired(): Promise<Effect[]> {
    const out: Effect[] = [];
    for (const p of this.pending.values()) {
      if (p.state === "open" && p.expiresAt <= this.now()) {
        p.state = "expired";
        out.push(...this.updates(p, "Expired"));
      }
    }
    return out;
  }
}

function reply(text: string, visibility: "ephemeral" | "in_channel" = "ephemeral"): Effect {
  return { kind: "reply", message: { text, blocks: [{ type: "section", text: rich`${text}` }], visibility } };
}

function card(p: Pending, status: string): Message {
  const blocks: Block[] = [
    { type: "header", text: `Destroy ${p.target}?` },
    {
      type: "fields",
      fields: [
        { label: "Requested by", value: rich`<@${p.requester}>` },
        { label: "Approvals", value: rich`${p.approvals.length}/1` },
        { label: "Status", value: rich`${status}` },
      ],
    },
  ];
  if (p.state === "open") {
    blocks.push({
      type: "actions",
      buttons: [
        { actionId: APPROVE, label: "Approve", value: p.id, style: "primary" },
        {
          actionId: DENY,
          label: "Deny",
          value: p.id,
          style: "danger",
          confirm: { title: "Deny?", text: "The request will be closed.", confirm: "Deny", deny: "Back" },
        },
      ],
    });
  }
  return { text: `Destroy ${p.target}: ${status}`, blocks, visibility: "in_channel" };
}

export function listing(n: number, visibility: "ephemeral" | "in_channel" = "ephemeral"): Message {
  const rows = Array.from({ length: n }, (_, i) => ({
    name: `fs-${String(i).padStart(5, "0")}`,
    size: `${(i % 97) + 1} TiB`,
    used: `${i % 100}%`,
  }));
  return {
    text: `${n} file systems`,
    visibility,
    blocks: [
      { type: "header", text: "File systems" },
      {
        type: "table",
        columns: [
          { key: "name", label: "Name" },
          { key: "size", label: "Size", align: "right" },
          { key: "used", label: "Used", align: "right" },
        ],
        rows,
        totalRows: n,
      },
    ],
  };
}

/** A tiny valid PNG (1x1). */
export const PNG_BYTES = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64",
  ),
);

function chart(visibility: "ephemeral" | "in_channel"): Message {
  return {
    text: "Capacity chart",
    visibility,
    blocks: [
      { type: "header", text: "Capacity" },
      {
        type: "image",
        title: "Capacity, last 30 days",
        altText: "Line chart of used capacity",
        file: { filename: "capacity.png", title: "Capacity", contentType: "image/png", content: PNG_BYTES },
      },
    ],
  };
}
