/**
 * The catalogue is checked against the endpoint table when the bot starts, not only in tests: an entry naming a
 * path the table lacks stops the start-up with the problem named, instead of failing when someone types it.
 */
import { describe, expect, test } from "vitest";
import { CATALOGUE } from "../../commands/catalogue/index.js";
import { compose } from "../../src/compose.js";
import { configSchema } from "../../src/config/schema.js";
import { silentLogger } from "../../src/logger.js";

const loaded = {
  config: configSchema.parse({
    arrays: [{ name: "fb1", address: "https://fb1.example.net", api_token_env: "T" }],
  }),
  arrays: [],
  source: "test",
};
const faces = {
  logger: silentLogger(),
  identity: { groupsOf: async () => [], isRestricted: async () => false },
  audit: { write: () => {} },
  store: { kind: "memory" as const },
};

describe("start-up", () => {
  test("starts with the shipped catalogue", async () => {
    const bot = await compose(loaded, faces);
    await bot.close();
  });

  test("refuses to start with a catalogue entry the endpoint table lacks, naming it", async () => {
    const first = CATALOGUE[0];
    if (!first) throw new Error("empty catalogue");
    const broken = [...CATALOGUE, { ...first, noun: "widget", path: "/widgets" }];
    await expect(compose(loaded, { ...faces, catalogue: broken })).rejects.toMatchObject({
      code: "CATALOGUE_INVALID",
      message: expect.stringContaining("widget: /widgets is not in the endpoint table"),
    });
  });
});
