/**
 * `access-key import <user> --key-id <id>` (REST 1.10+): moves an S3 access key from another FlashBlade, so
 * applications keep their credentials. The key id is typed in chat, its secret never is: the command declares
 * it in `secrets`, the pipeline asks the requester in a private dialog (Slack) or an unechoed line (console),
 * and `fill` gets it in memory for this one request. The card, the answer, the audit and the pending store hold
 * the id and the user only. Hand-written because the generic create takes no secret for this noun (the array
 * makes it), so the imported one needs its own verb.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { InternalError, UserFacingError } from "../../src/errors.js";
import { atLeast } from "../../src/rest-spec/versions.js";
import { itemsOf, planned } from "../shared/plan.js";
import {
  keyName,
  keySchema,
  keysFact,
  keysOf,
  PATH,
  refuseFull,
  requireUser,
  userName,
} from "./access-key.js";

/** The first version whose POST takes `names` with a `secret_access_key` body (ObjectStoreAccessKeyPost). */
const IMPORT_SINCE = "1.10";
const SECRET = "secret_access_key";
/** Shown in the card and --dry-run where the secret will go; the pipeline fills it from `fill`. */
const SECRET_PLACEHOLDER = "(typed in a private dialog)";

export const accessKeyImport = defineCommand({
  verb: "import",
  summary: `Import an access key from another FlashBlade (REST ${IMPORT_SINCE}+); its secret is asked in a private dialog, never typed in chat`,
  examples: ["access-key import analytics/etl --key-id PSFBIAZFCAAAAAAAAAAAA"],
  role: "operator",
  endpoints: ["POST /object-store-access-keys {secret_access_key}"],
  visibility: "in_channel",
  positional: ["user"],
  args: z.object({ user: userName(), keyId: keyName() }),
  secrets: () => [{ key: SECRET, label: "Secret access key" }],
  async impact(a, ctx): Promise<Impact> {
    const version = await ctx.array.version();
    if (!atLeast(version, IMPORT_SINCE)) {
      throw new UserFacingError(
        "ARRAY_VERSION_TOO_OLD",
        `\`access-key import\` needs REST ${IMPORT_SINCE}, ${ctx.arrayName} runs ${version}. Nothing was sent. Create a new key there with \`/array access-key create ${a.user}\`.`,
        { details: { array: ctx.arrayName, arrayVersion: version, needed: IMPORT_SINCE } },
      );
    }
    await requireUser(ctx, a.user);
    const all = await keysOf(ctx);
    const same = all.find((k) => k.name === a.keyId);
    if (same) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `Access key ${a.keyId} is already on ${ctx.arrayName} (user ${same.user?.name ?? "?"}). Nothing was changed.`,
      );
    }
    const keys = all.filter((k) => k.user?.name === a.user);
    refuseFull(a.user, keys);
    return {
      target: `access key ${a.keyId} for ${a.user}`,
      summary: rich`Imports access key ${a.keyId} for *${a.user}* on ${ctx.arrayName}, with the secret you type next.`,
      facts: [keysFact(keys)],
      warnings: [],
      state: { keys: keys.length, exists: false },
      requests: [
        planned("POST", PATH, { names: [a.keyId] }, { user: { name: a.user }, [SECRET]: SECRET_PLACEHOLDER }),
      ],
      placeholders: [SECRET_PLACEHOLDER],
    };
  },
  async fill(_a, ctx) {
    const typed = ctx.secrets?.[SECRET];
    if (typed === undefined)
      throw new InternalError("SECRET_MISSING", "access-key import ran without its secret");
    // A pasted secret often brings a space or a newline along; an S3 secret never holds whitespace.
    const secret = typed.trim();
    if (!/^\S{1,256}$/.test(secret)) {
      throw new UserFacingError(
        "SECRET_MALFORMED",
        "The secret you typed has spaces in it or is longer than 256 characters; an access key's secret has neither. Nothing was sent: run the command again.",
      );
    }
    // The typed secret takes the placeholder's place in the planned request, and nowhere else.
    return { [SECRET_PLACEHOLDER]: secret };
  },
  result(responses, a, ctx) {
    const [key] = itemsOf(ctx, responses, keySchema);
    // Only the id and the user leave this function: the array echoes the secret back in its answer.
    return { user: a.user, name: key?.name ?? a.keyId };
  },
  render(r, _a, rctx) {
    const text = `Imported access key ${r.name} for ${r.user} on ${rctx.arrays[0] ?? "?"}.`;
    return message(
      text,
      [
        {
          type: "section",
          text: rich`Imported access key ${r.name} for *${r.user}* on ${rctx.arrays[0] ?? "?"}.`,
        },
        {
          type: "context",
          text: rich`Applications can sign with it here now; its secret is not shown or kept.`,
        },
      ],
      { visibility: "in_channel" },
    );
  },
});
