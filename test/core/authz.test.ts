import { describe, expect, test } from "vitest";
import { accessSchema } from "../../src/config/schema.js";
import { createAccessResolver } from "../../src/core/access/authz.js";

const access = accessSchema.parse({
  admin: { users: ["alice"] },
  operator: { users: ["bob"], groups: ["S-storage"] },
  viewer: { users: ["carol"] },
  overrides: [
    { arrays: ["prod-1"], viewer: { users: ["bob"] }, admin: { groups: ["S-prod-admins"] } },
    { tags: ["prod"], operator: { users: ["carol"] } },
  ],
});

const groups: Record<string, string[]> = {
  erin: ["S-storage"],
  frank: ["S-prod-admins"],
  gus: ["S-storage"],
};
const identity = (restricted: string[] = []) => ({
  groupsOf: async (u: string) => groups[u] ?? [],
  isRestricted: async (u: string) => restricted.includes(u),
});

const lab = { name: "lab-1", tags: [] };
const prod1 = { name: "prod-1", tags: ["prod"] };
const prod2 = { name: "prod-2", tags: ["prod"] };

describe("role resolution", () => {
  const r = createAccessResolver(access, identity(["gus"]));

  test.each([
    ["alice", lab, "admin"],
    ["bob", lab, "operator"],
    ["carol", lab, "viewer"],
    ["erin", lab, "operator"],
    ["mallory", lab, undefined],
    // An array-name override beats the global map, even downwards.
    ["bob", prod1, "viewer"],
    // A tag override applies where no name override mentions the user.
    ["carol", prod2, "operator"],
    ["carol", prod1, "operator"],
    ["frank", prod1, "admin"],
    ["frank", lab, undefined],
    // Guests and deactivated users are capped at viewer.
    ["gus", lab, "viewer"],
  ] as const)("%s on %s → %s", async (user, array, role) => {
    expect(await r.roleOn(user, array)).toBe(role);
  });

  test("the best role across arrays is the highest", async () => {
    expect(await r.bestRole("bob", [prod1, lab])).toBe("operator");
    expect(await r.bestRole("mallory", [prod1, lab])).toBeUndefined();
  });

  test("default_role: viewer lets everyone look, but restricted users stay at viewer at most", async () => {
    const open = createAccessResolver(accessSchema.parse({ default_role: "viewer" }), identity(["mallory"]));
    expect(await open.roleOn("mallory", lab)).toBe("viewer");
    expect(await open.roleOn("anyone", lab)).toBe("viewer");
  });
});

describe("access config validation", () => {
  test("an override names arrays or tags, not both and not neither", () => {
    expect(accessSchema.safeParse({ overrides: [{ admin: { users: ["x"] } }] }).success).toBe(false);
    expect(accessSchema.safeParse({ overrides: [{ arrays: ["a"], tags: ["b"] }] }).success).toBe(false);
  });
  test("user IDs, not @handles", () => {
    expect(accessSchema.safeParse({ admin: { users: ["@alice"] } }).success).toBe(false);
  });
});
