import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METHOD_SCOPES } from "../../src/slack/scopes.js";
import { eventCallback, slashCommand } from "../fakes/payloads.js";
import { type Harness, type Mode, startHarness } from "./helpers/harness.js";
import { PNG_BYTES, TestPipeline } from "./helpers/test-pipeline.js";

describe.each<Mode>(["http", "socket"])("files and App Home over %s", (mode) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(mode, {
      pipeline: ({ identity }) => new TestPipeline(identity),
      home: {
        load: async (userId) => ({
          role: userId === "U2" ? "operator" : "viewer",
          arrays: [
            { name: "fb-prod-1", reachable: true, detail: "REST 1.12" },
            { name: "fb-lab-<b>", reachable: false, detail: "connection refused" },
          ],
          pending: [
            {
              id: "P1",
              summary: "Destroy fs1 on fb-prod-1",
              requester: "alice",
              channelId: "C1",
              approvals: 0,
              required: 1,
            },
          ],
          help: [{ usage: "/array fs list", summary: "List file systems" }],
        }),
      },
    });
  });
  afterAll(() => h.stop());

  it("sends a long private listing as a CSV in the requester's DM and says so", async () => {
    const responseUrl = h.fake.responseUrl("long");
    await h.driver.command(slashCommand({ text: "list 10000", userId: "U5", responseUrl }));
    const complete = await h.fake.waitForCall("files.completeUploadExternal");
    expect(complete.args["channel_id"]).toBe("DU5");
    const reply = await h.fake.waitForResponse((r) => r.id === "long");
    const blocks = JSON.stringify(reply.body["blocks"]);
    expect(blocks).toContain("Showing 100 of 10,000 rows");
    expect(blocks).toContain("in your direct messages");

    const get = h.fake.callsOf("files.getUploadURLExternal")[0];
    expect(get?.args["filename"]).toBe("file-systems.csv");
    const fileId = (complete.args["files"] as { id: string }[])[0]?.id ?? "";
    const csv = h.fake.uploads.get(fileId)?.toString("utf8") ?? "";
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(10_001);
    expect(lines[0]).toBe("Name,Size,Used");
    expect(lines[10_000]).toBe("fs-09999,9 TiB,99%");
    expect(Number(get?.args["length"])).toBe(Buffer.byteLength(csv));
  });

  it("uploads a chart to the channel for an in-channel answer", async () => {
    const before = h.fake.callsOf("files.completeUploadExternal").length;
    await h.driver.command(
      slashCommand({ text: "chart --public", channelId: "C3", responseUrl: h.fake.responseUrl("chart") }),
    );
    const complete = await h.fake.waitForCall("files.completeUploadExternal", () => true, before + 1);
    expect(complete.args["channel_id"]).toBe("C3");
    const get = h.fake.callsOf("files.getUploadURLExternal").at(-1);
    expect(get?.args).toMatchObject({ filename: "capacity.png", alt_text: "Line chart of used capacity" });
    const fileId = (complete.args["files"] as { id: string }[])[0]?.id ?? "";
    expect(new Uint8Array(h.fake.uploads.get(fileId) ?? [])).toEqual(PNG_BYTES);
    const reply = await h.fake.waitForResponse((r) => r.id === "chart");
    expect(JSON.stringify(reply.body["blocks"])).toContain("attached as capacity.png");
  });

  it("says so when a file cannot be shared in the channel", async () => {
    h.fake.script("files.completeUploadExternal", { error: "not_in_channel" });
    await h.driver.command(
      slashCommand({ text: "chart --public", channelId: "C4", responseUrl: h.fake.responseUrl("nofile") }),
    );
    const note = await h.fake.waitForResponse(
      (r) => r.id === "nofile" && String(r.body["text"]).startsWith("I could not"),
    );
    expect(note.body).toMatchObject({
      response_type: "ephemeral",
      text: "I could not attach capacity.png (not_in_channel). Invite the bot to this channel to get files here.",
    });
  });

  it("publishes the caller's App Home when the tab opens", async () => {
    await h.driver.event(
      eventCallback({ type: "app_home_opened", user: "U2", channel: "D2", tab: "home", event_ts: "1.0" }),
    );
    const publish = await h.fake.waitForCall("views.publish", (c) => c.args["user_id"] === "U2");
    const view = publish.args["view"] as { type: string; blocks: unknown[] };
    expect(view.type).toBe("home");
    const text = JSON.stringify(view.blocks);
    expect(text).toContain("Your role: *operator*");
    expect(text).toContain("fb-prod-1");
    // Array names are user data: escaped, never markup.
    expect(text).toContain("fb-lab-&lt;b&gt;");
    expect(text).toContain("Destroy fs1 on fb-prod-1");
    expect(text).toContain("<#C1>");
    expect(text).toContain("/array fs list");
  });

  it("publishes once for an event Slack delivers twice", async () => {
    const ev = eventCallback(
      { type: "app_home_opened", user: "U8", channel: "D8", tab: "home", event_ts: "2.0" },
      "EvDup",
    );
    await h.driver.event(ev);
    await h.driver.event(ev, { retryNum: 1 });
    await h.driver.event(
      eventCallback({ type: "app_home_opened", user: "U9", channel: "D9", tab: "home", event_ts: "3.0" }),
    );
    await h.fake.waitForCall("views.publish", (c) => c.args["user_id"] === "U9");
    expect(h.fake.callsOf("views.publish").filter((c) => c.args["user_id"] === "U8")).toHaveLength(1);
  });

  it("calls only Web API methods whose scopes manifest.yml asks for", () => {
    const methods = new Set(h.fake.calls.map((c) => c.method));
    expect([...methods].filter((m) => !(m in METHOD_SCOPES))).toEqual([]);
    expect(h.fake.unexpected).toEqual([]);
  });
});
