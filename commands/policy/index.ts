import { defineResource } from "../../src/core/catalogue/define-command.js";
import { policyAttach, policyDetach } from "./attach.js";
import { policyCreate, policyDelete, policyUpdate } from "./change.js";
import { policyGaps, policyList, policyMembers, policyShow } from "./view.js";

export const policyResource = defineResource({
  name: "policy",
  area: "Protection",
  aliases: ["policies"],
  summary: "Snapshot policies: rules, what they protect, and what nothing protects",
  commands: [
    policyList,
    policyShow,
    policyCreate,
    policyUpdate,
    policyDelete,
    policyAttach,
    policyDetach,
    policyMembers,
    policyGaps,
  ],
});
