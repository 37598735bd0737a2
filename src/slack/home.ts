/**
 * The App Home tab: what the bot is, the caller's role, their arrays and how they are, approvals they can
 * act on, and the command index. Data comes through `HomePort` (the pipeline and pool fill it); building
 * the view is pure.
 */
import { type Block, type Message, Rich, rich } from "../core/message.js";
import { type SlackBlock, toSlack } from "./blocks.js";

export interface HomeArray {
  name: string;
  reachable: boolean;
  /** Version, capacity line, or the reason it is unreachable. */
  detail?: string;
}

export interface HomePending {
  id: string;
  summary: string;
  requester: string;
  /** Where the approval request was posted, so the person can go and click. */
  channelId?: string;
  expiresAt?: Date;
  approvals?: number;
  required?: number;
}

export interface HomeData {
  role: string;
  arrays: readonly HomeArray[];
  pending: readonly HomePending[];
  help: readonly { usage: string; summary: string }[];
}

export interface HomePort {
  load(userId: string): Promise<HomeData>;
}

export interface HomeView {
  type: "home";
  blocks: SlackBlock[];
}

const MAX_LINES = 40;

function channelLink(id: string | undefined): Rich {
  return id !== undefined && /^[CG][A-Z0-9]+$/.test(id) ? new Rich(` in <#${id}>`) : new Rich("");
}

function lines(items: readonly Rich[], more: number): Rich {
  const text = items.map((r) => r.markup).join("\n");
  return new Rich(more > 0 ? `${text}\n_…and ${more} more_` : text);
}

export function homeMessage(data: HomeData, now: Date = new Date()): Message {
  const blocks: Block[] = [
    { type: "header", text: "Array Ops" },
    {
      type: "section",
      text: rich`I run and watch Pure Storage FlashBlade arrays from Slack. Type \`/array help\` in any channel I am in, or start with \`/array status\`.`,
    },
    { type: "context", text: rich`Your role: *${data.role}*` },
    { type: "divider" },
    { type: "header", text: "Your arrays" },
  ];
  if (data.arrays.length === 0) {
    blocks.push({ type: "section", text: rich`No arrays are configured for you.` });
  } else {
    const shown = data.arrays.slice(0, MAX_LINES).map((a) => {
      const icon = new Rich(a.reachable ? ":large_green_circle:" : ":red_circle:");
      const detail = a.detail === undefined ? new Rich("") : rich` (${a.detail})`;
      return rich`${icon} *${a.name}* ${a.reachable ? "reachable" : "unreachable"}${detail}`;
    });
    blocks.push({ type: "section", text: lines(shown, data.arrays.length - shown.length) });
  }
  blocks.push({ type: "header", text: "Approvals waiting for you" });
  if (data.pending.length === 0) {
    blocks.push({ type: "section", text: rich`Nothing is waiting for your approval.` });
  } else {
    const shown = data.pending.slice(0, MAX_LINES).map((p) => {
      const progress =
        p.required === undefined ? new Rich("") : rich`, ${p.approvals ?? 0}/${p.required} approvals`;
      const expires =
        p.expiresAt === undefined
          ? new Rich("")
          : rich`, expires in ${Math.max(0, Math.round((p.expiresAt.getTime() - now.getTime()) / 60_000))} min`;
      return rich`• ${p.summary}, requested by ${p.requester}${progress}${expires}${channelLink(p.channelId)}`;
    });
    blocks.push({ type: "section", text: lines(shown, data.pending.length - shown.length) });
  }
  blocks.push({ type: "header", text: "Commands by area (details: /array help <resource>)" });
  // One section per area keeps each well under Slack's 3,000 characters per section.
  for (const h of data.help) blocks.push({ type: "section", text: rich`*${h.usage}*: ${h.summary}` });
  return { text: "Array Ops home", blocks };
}

export function homeView(data: HomeData, now?: Date): HomeView {
  return { type: "home", blocks: toSlack(homeMessage(data, now), "home").blocks };
}
