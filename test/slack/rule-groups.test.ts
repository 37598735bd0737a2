/**
 * A change-control rule that names a user group nobody is in can never be met: the Slack face refuses to start,
 * naming the setting (issue 45). A group Slack will not show is left alone (the rule's other members still count).
 */
import { expect, test } from "vitest";
import { configSchema } from "../../src/config/schema.js";
import { assertRuleGroupsPopulated, identityGroupIds } from "../../src/slack/run.js";

const config = configSchema.parse({
  arrays: [{ name: "a", address: "https://127.0.0.1:1", api_token_env: "T" }],
  access: { admin: { groups: ["SADMINS"] } },
  approvals: {
    rules: [{ name: "leads", approvals: 1, approvers: { groups: ["SLEADS"] }, veto: { groups: ["SSEC"] } }],
  },
  break_glass: { groups: ["SONCALL"] },
});

test("the bot learns the members of every group change control names, besides the access mapping's", () => {
  expect(identityGroupIds(config).sort()).toEqual(["SADMINS", "SLEADS", "SONCALL", "SSEC"]);
});

test("an empty group a rule names is a start-up error naming where; an unreadable one is not", async () => {
  const members: Record<string, string[] | undefined> = { SLEADS: ["U1"], SSEC: [], SONCALL: undefined };
  await expect(assertRuleGroupsPopulated(config, { membersOf: async (g) => members[g] })).rejects.toThrow(
    /approvals\.rules\[0\]\.veto: the user group SSEC has nobody in it/,
  );
  members["SSEC"] = ["U2"];
  await expect(
    assertRuleGroupsPopulated(config, { membersOf: async (g) => members[g] }),
  ).resolves.toBeUndefined();
});
