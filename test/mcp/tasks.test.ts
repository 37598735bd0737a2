/**
 * MCP tasks for changes (issue 46), through the SDK's own client: a change called with `task` answers with a
 * task in `working`; a person's Approve has it carried out and the task completes with the result; a Deny fails
 * it. The task is the pending request (its id), so a client without tasks still follows it with request_status.
 */
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test } from "vitest";
import { type McpWorld, startMcpWorld, TOKENS, textOfResult } from "./helpers.js";

const TIB = 2 ** 40;
let w: McpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function resizeAsTask(world: McpWorld, extraTiB: number) {
  const before = world.h.sims.get("lab-1")?.state.fileSystems.get("projects")?.provisioned ?? 0;
  const target = (Math.ceil(before / TIB) + extraTiB) * TIB;
  const client = await world.connect(TOKENS.ops);
  const created = await client.request(
    {
      method: "tools/call",
      params: { name: "fs_resize", arguments: { name: "projects", size: target }, task: { ttl: 600_000 } },
    },
    CreateTaskResultSchema,
  );
  return { client, task: created.task, before, target };
}

describe("MCP tasks", () => {
  test("change tools say they take tasks; reads do not", async () => {
    w = await startMcpWorld();
    const client = await w.connect(TOKENS.reader);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "fs_resize")?.execution?.taskSupport).toBe("optional");
    expect(tools.find((t) => t.name === "fs_list")?.execution).toBeUndefined();
    expect(client.getServerCapabilities()?.tasks?.requests?.tools?.call).toBeDefined();
  });

  test("a change as a task is working until a person approves it, then completed with the result", async () => {
    w = await startMcpWorld();
    const { client, task, target } = await resizeAsTask(w, 3);
    expect(task.status).toBe("working");
    expect((await w.h.store.get(task.taskId))?.status).toBe("pending");
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("working");
    await w.h.click("bob", w.cards, "Approve");
    expect(w.h.sims.get("lab-1")?.state.fileSystems.get("projects")?.provisioned).toBe(target);
    const done = await client.experimental.tasks.getTask(task.taskId);
    expect(done.status).toBe("completed");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { state: string }).state).toBe("executed");
    expect(textOfResult(result)).toContain("projects");
    // The same request, for a client that follows it without tasks.
    const st = await client.callTool({ name: "request_status", arguments: { id: task.taskId } });
    expect((st.structuredContent as { state: string }).state).toBe("executed");
  });

  test("a denied change fails its task and changes nothing", async () => {
    w = await startMcpWorld();
    const { client, task, before } = await resizeAsTask(w, 2);
    await w.h.click("alice", w.cards, "Deny");
    const failed = await client.experimental.tasks.getTask(task.taskId);
    expect(failed.status).toBe("failed");
    expect(failed.statusMessage).toContain("denied");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(w.h.sims.get("lab-1")?.state.fileSystems.get("projects")?.provisioned).toBe(before);
  });

  test("an expired change fails its task", async () => {
    w = await startMcpWorld();
    const { client, task } = await resizeAsTask(w, 4);
    const rec = await w.h.store.get(task.taskId);
    w.h.clock.advance((rec?.expiresAt ?? 0) - w.h.clock.now + 1);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("failed");
  });

  test("a client sees only its own tasks, and cannot cancel one", async () => {
    w = await startMcpWorld();
    const { client, task } = await resizeAsTask(w, 5);
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    const reader = await w.connect(TOKENS.reader);
    await expect(reader.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
    expect((await reader.experimental.tasks.listTasks()).tasks).toEqual([]);
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow();
    expect((await w.h.store.get(task.taskId))?.status).toBe("pending");
  });

  test("a change refused before any request is made is an error, not a task", async () => {
    w = await startMcpWorld();
    const reader = await w.connect(TOKENS.reader);
    await expect(
      reader.request(
        {
          method: "tools/call",
          params: { name: "fs_resize", arguments: { name: "projects", size: "900T" }, task: {} },
        },
        CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/permission|role|not allowed|viewer/i);
  });
});
