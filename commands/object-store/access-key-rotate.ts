/**
 * `access-key rotate <user>`: a new key for the user, its secret shown once, and a button per old key that
 * disables it — through the disable's own confirmation (`disable_access_key`), once applications sign with the
 * new key. Rotation used to be three commands, and the disable among them cut applications off without asking.
 * Hand-written because it is create's request with an offer of the disables, which no catalogue verb composes.
 */
import { z } from "zod";
import { defineCommand, type FollowUp, type Impact } from "../../src/core/catalogue/define-command.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { planned } from "../shared/plan.js";
import { createdKey, keysFact, keysOfUser, PATH, refuseFull, userName } from "./access-key.js";

/** How long the Disable buttons stay offered: a day to move applications to the new key. */
const OFFER_MS = 24 * 3_600_000;

export const accessKeyRotate = defineCommand({
  verb: "rotate",
  summary: "A new S3 access key for a user (its secret shown once), then Disable buttons for the old ones",
  examples: ["access-key rotate analytics/etl"],
  role: "operator",
  endpoints: ["POST /object-store-access-keys {rotate: a new key beside the old}"],
  visibility: "ephemeral",
  positional: ["user"],
  args: z.object({ user: userName() }),
  async impact(a, ctx): Promise<Impact> {
    const keys = await keysOfUser(ctx, a.user);
    const old = keys.filter((k) => k.enabled !== false).map((k) => k.name);
    const disabled = keys.filter((k) => k.enabled === false).map((k) => k.name);
    refuseFull(
      a.user,
      keys,
      `, so there is no room for a new one. ${disabled.length > 0 ? `Delete the disabled one first: \`/array access-key delete ${disabled[0]}\`.` : "Delete the one applications no longer use first (`/array access-key delete <key>`)."}`,
    );
    return {
      target: `access key for ${a.user}`,
      summary: rich`Creates a new S3 access key for *${a.user}* on ${ctx.arrayName} (its secret shown once, only to the requester), then offers to disable the old one${old.length === 1 ? "" : "s"}, with a confirmation.`,
      facts: [keysFact(keys)],
      warnings: [],
      state: { keys: keys.length, old: old.join(",") },
      requests: [planned("POST", PATH, {}, { user: { name: a.user } })],
    };
  },
  result(responses, a, ctx, impact) {
    const key = createdKey(ctx, responses, a.user, "rotate again");
    const old = String(impact.state["old"] ?? "")
      .split(",")
      .filter((k) => k !== "" && k !== key.name);
    return { user: a.user, name: key.name, secret: key.secret, old };
  },
  render(r, _a, rctx) {
    const array = rctx.arrays[0] ?? "?";
    const next =
      r.old.length === 0
        ? rich`${r.user} had no enabled key before this one: nothing to disable.`
        : rich`Next: once applications sign with the new key, disable the old ${r.old.length === 1 ? "one" : "ones"} (${r.old.join(", ")}) with the button below; it asks for a confirmation first, since applications still using it are refused at once.`;
    return message(
      `New access key for ${r.user} on ${array}: shown once, only to you.`,
      [
        {
          type: "section",
          text: rich`New access key for *${r.user}* on ${array}. Only you can see this, and it will not be shown again: store the secret now (e.g. in your vault).`,
        },
        { type: "fields", fields: [{ label: "Access key id", value: rich`\`${r.name}\`` }] },
        { type: "code", text: r.secret },
        { type: "context", text: next },
      ],
      { visibility: "ephemeral", secret: true },
    );
  },
  followUp(r): readonly FollowUp[] {
    return r.old.map((key) => ({
      label: `Disable ${key}`,
      commandId: "access-key.disable",
      args: { key },
      validForMs: OFFER_MS,
      style: "danger" as const,
    }));
  },
});
