/**
 * A spooled CSV (a listing streamed to a temporary file) goes to Slack through the external upload flow as a
 * stream with its exact length, arrives whole, and the temporary file is gone afterwards, sent or not.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCsvSpool } from "../../src/core/presentation/spool.js";
import { silentLogger } from "../../src/logger.js";
import { createFileUploader } from "../../src/slack/file-upload.js";
import { PacedSlackClient } from "../../src/slack/paced-client.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";

describe("spooled uploads", () => {
  let fake: FakeSlackApi;
  let client: PacedSlackClient;
  beforeAll(async () => {
    fake = await FakeSlackApi.start();
    client = new PacedSlackClient(
      fake.webClient("xoxb-up"),
      { channelIntervalMs: 0, maxRetries: 0 },
      silentLogger(),
    );
  });
  afterAll(async () => {
    await client.stop();
    await fake.close();
  });

  it("streams the file with its length, delivers every row, and removes it", async () => {
    const spool = await createCsvSpool([{ key: "name", label: "Name" }], "big.csv");
    for (let i = 0; i < 50_000; i++) await spool.write({ name: `fs-${i}` });
    const file = await spool.finish();
    const uploader = createFileUploader({ client, logger: silentLogger() });
    const [id] = await uploader.upload(
      [{ filename: "big.csv", title: "All", contentType: "text/csv", content: file }],
      { channelId: "D1" },
    );
    const got = fake.uploads.get(id ?? "")?.toString("utf8") ?? "";
    expect(got.trimEnd().split("\r\n")).toHaveLength(50_001);
    expect(Buffer.byteLength(got)).toBe(file.bytes);
    expect(fake.callsOf("files.getUploadURLExternal").at(-1)?.args["length"]).toBe(String(file.bytes));
    expect(existsSync(file.path)).toBe(false);
  });
});
