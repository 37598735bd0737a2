/**
 * `fleet member join <fleet> <member> --array <joining>` (REST 2.17+): the array --array names joins the fleet <member>
 * (an array the bot reaches, already in it) belongs to. Hand-written because a join spans two arrays: the member
 * mints a fleet key and the joining array presents it (POST /fleets/members runs on the array that joins); the
 * key passes from one to the other in this run's memory only, never shown, typed or stored.
 */
import { z } from "zod";
import {
  type CommandContext,
  defineCommand,
  defineResource,
  type Impact,
} from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import type { Responses } from "../../src/core/requests/send-plan.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { UserFacingError } from "../../src/errors.js";
import { FLEETS_SINCE } from "../../src/flashblade/fleet-members.js";
import type { ArrayClient } from "../../src/flashblade/types.js";
import { done } from "../shared/done.js";
import { itemsOf, planned } from "../shared/plan.js";

const NEW_KEY = "(new fleet key)";
const named = z.looseObject({ name: z.string() });
const keySchema = z.looseObject({ fleet_key: z.string().nullish() });

const args = z.object({
  fleet: objectName("fleet name").describe("the fleet to join"),
  member: objectName("array name").describe("an array already in the fleet, which makes the fleet key"),
});
type Args = z.output<typeof args>;

async function fleetOf(client: ArrayClient): Promise<string | undefined> {
  if (!(await client.supports(FLEETS_SINCE)))
    throw new UserFacingError(
      "ARRAY_VERSION_TOO_OLD",
      `${client.name} speaks REST ${await client.version()}; fleets need REST ${FLEETS_SINCE} or later.`,
    );
  return (await client.get("/fleets", { schema: named })).items[0]?.name;
}

export const fleetJoin = defineCommand({
  verb: "join",
  summary: "Join the array to a fleet, with a fleet key made on a member (the key is never shown)",
  examples: ["fleet member join fleet-prod fb-lab-01 --array fb-dr-01"],
  role: "admin",
  endpoints: [
    "GET /fleets",
    "GET /arrays",
    "POST /fleets/members",
    "POST /fleets/fleet-key {on the member array}",
  ],
  visibility: "in_channel",
  // The generic `fleet member add` cannot: it has no way to the key, which only another member makes.
  replaces: ["fleet.member.add"],
  positional: ["fleet", "member"],
  args,
  // Every member of a fleet can act for the others: joining one is a change to who may run this array.
  destructive: () => "array_settings",
  gateClasses: ["array_settings"],
  async impact(a: Args, ctx: CommandContext): Promise<Impact> {
    const now = await fleetOf(ctx.array);
    if (now !== undefined)
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `${ctx.arrayName} is already in fleet ${now}; an array is in one fleet at a time. Nothing was changed.`,
      );
    const member = ctx.pool.get(a.member);
    if (member.name === ctx.arrayName)
      throw new UserFacingError(
        "INVALID_ARGUMENTS",
        "Name a member of the fleet other than the array joining.",
      );
    const theirs = await fleetOf(member);
    if (theirs !== a.fleet)
      throw new UserFacingError(
        "NOT_FOUND",
        `${member.name} is ${theirs ? `in fleet ${theirs}` : "in no fleet"}, not in ${a.fleet}. Nothing was changed.`,
      );
    // The array names itself by its own name, which its configuration in the bot may spell differently.
    const self = (await ctx.array.get("/arrays", { schema: named })).items[0]?.name ?? ctx.arrayName;
    return {
      target: `fleet ${a.fleet}`,
      summary: rich`${ctx.arrayName} joins fleet *${a.fleet}* with a fleet key made on ${member.name}; every member of the fleet may then act for it. The key is never shown.`,
      facts: [
        { label: "Fleet", value: rich`${a.fleet}` },
        { label: "Key from", value: rich`${member.name}` },
      ],
      warnings: [],
      state: { fleet: null, memberFleet: a.fleet },
      requests: [
        { ...planned("POST", "/fleets/fleet-key"), on: member.name },
        planned(
          "POST",
          "/fleets/members",
          { fleet_names: [a.fleet] },
          { members: [{ member: { name: self }, key: NEW_KEY }] },
        ),
      ],
      placeholders: [NEW_KEY],
    };
  },
  // The key the member made (the first request's answer) fills the join's placeholder.
  async fill(a: Args, ctx: CommandContext, responses: Responses) {
    const key = itemsOf(ctx, responses, keySchema, 0)[0]?.fleet_key;
    if (!key)
      throw new UserFacingError(
        "NO_SECRET",
        `${a.member} made no fleet key. Nothing was changed on ${ctx.arrayName}.`,
      );
    return { [NEW_KEY]: key };
  },
  result: (_responses: Responses, a: Args, ctx: CommandContext) => ({ fleet: a.fleet, array: ctx.arrayName }),
  render: (r) => done(`${r.array} joined fleet ${r.fleet}.`),
});

/** `fleet member join` in place of the generic `add` (commands/catalogue/index.ts joins it to the noun). */
export const fleetMemberResource = defineResource({
  name: "fleet member",
  summary: "Members of a fleet (REST 2.17+): arrays managed as one, each able to act for the others",
  commands: [fleetJoin],
});
