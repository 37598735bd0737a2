/**
 * MCP tasks (the specification's long-running tool calls) over the pending store. A change tool called with
 * `task` answers with a task in `working` whose id is its pending request's; the task completes once a person's
 * approval has the change carried out, and fails when it is denied, expires, or fails. The pending store stays
 * the one record (nothing is kept twice, any replica answers for any task), a client sees only its own
 * requests, and it cannot cancel one: only people decide (src/core/approvals/gate.ts). Clients that do not ask for a task
 * get the pending id and `request_status`, as before.
 */
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import type { PendingRecord, PendingStore } from "../core/approvals/pending-store.js";
import { requestStatus, stateOf } from "./status.js";

/** How often a client is asked to look again: people take minutes, not milliseconds, to approve. */
export const TASK_POLL_MS = 5000;

/** The task a pending request is: working until carried out (completed) or denied, expired or failed. */
export function taskOf(rec: PendingRecord, now: number): Task {
  const state = stateOf(rec, now);
  const status =
    state === "pending" || state === "approved" ? "working" : state === "executed" ? "completed" : "failed";
  return {
    taskId: rec.id,
    status,
    // Kept as long as the pending store keeps the record.
    ttl: null,
    createdAt: new Date(rec.createdAt).toISOString(),
    lastUpdatedAt: new Date(rec.updatedAt).toISOString(),
    pollInterval: TASK_POLL_MS,
    statusMessage: `${rec.display.title}: ${state}${rec.outcome && status === "failed" ? ` (${rec.outcome})` : ""}`,
  };
}

const ONLY_CHANGES = "Tasks are the change tools' pending requests; nothing else creates or ends one.";

/** The tasks one principal may see: its own pending requests. */
export function pendingTasks(pending: PendingStore, principal: string, now: () => number): TaskStore {
  const own = async (id: string) => {
    const rec = await pending.get(id);
    return rec?.kind === "request" && rec.requester.userId === principal ? rec : undefined;
  };
  return {
    async createTask() {
      throw new Error(ONLY_CHANGES);
    },
    async getTask(taskId) {
      const rec = await own(taskId);
      return rec ? taskOf(rec, now()) : null;
    },
    async storeTaskResult() {
      throw new Error(ONLY_CHANGES);
    },
    async getTaskResult(taskId) {
      const rec = await own(taskId);
      const result = await requestStatus(pending, principal, taskId, now);
      // A denied, expired or failed change is the call's failure.
      return rec && taskOf(rec, now()).status === "failed" ? { ...result, isError: true } : result;
    },
    async updateTaskStatus() {
      throw new Error(
        "An assistant cannot cancel or end a request: a person approves or denies it in Slack.",
      );
    },
    async listTasks() {
      const open = await pending.listOpen();
      const t = now();
      return {
        tasks: open
          .filter((r) => r.kind === "request" && r.requester.userId === principal)
          .map((r) => taskOf(r, t)),
      };
    },
  };
}
