/**
 * The `workflow_steps` section: each Workflow Builder step the bot offers is a principal of its own
 * (`workflow:<step>`), with a role like an MCP client's, globally or per array. A step has no role unless one is
 * given here: a workflow builder is whoever a workspace lets build workflows, so nothing they build may act
 * before the bot's operator says so. A person Slack vouches for in the step (user_context) caps the step's role
 * with their own and confirms its changes; a person named in an ordinary input never acts.
 */
import { z } from "zod";
import { ROLES, type Role } from "../vocabulary.js";

const roleSchema = z.enum(ROLES);

const stepSchema = z.strictObject({
  /** The step's role on every array (absent: none, unless `arrays` names one). */
  role: roleSchema.optional(),
  /** Roles on named arrays, which beat `role`. */
  arrays: z.record(z.string().min(1), roleSchema).default({}),
});
export type WorkflowStepConfig = z.output<typeof stepSchema>;

export const workflowStepsSchema = z.record(
  z.string().regex(/^[a-z0-9_]{1,64}$/, "a step's callback id (run_array_command, array_fs_create, …)"),
  stepSchema,
);
export type WorkflowStepsConfig = z.output<typeof workflowStepsSchema>;

/** A step's role on one array: its per-array role, else its global one, else none. */
export function stepRole(steps: WorkflowStepsConfig, step: string, array: string): Role | undefined {
  const c = Object.hasOwn(steps, step) ? steps[step] : undefined;
  if (!c) return undefined;
  return Object.hasOwn(c.arrays, array) ? c.arrays[array] : c.role;
}
