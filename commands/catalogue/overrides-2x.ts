/**
 * What a person chose for the generated 2.x nouns (catalogue-2x.data.ts), by path: words where the path's read
 * poorly, roles above the area's, and destructive classes where a change cannot be taken back. Approval-class
 * (`eradicate`, an admin approves) marks what removes protection for good or opens the array to being wiped:
 * releasing a legal hold, deleting a WORM data policy, minting a factory-reset token.
 */
import type { NounSpec } from "./spec.js";

export type Override2x = Partial<
  Pick<NounSpec, "noun" | "area" | "roles" | "classes" | "examples" | "summary">
>;

export const OVERRIDES_2X: Readonly<Record<string, Override2x>> = {
  "/legal-holds/held-entities": {
    summary: "Paths a legal hold holds: put a path under a hold, release it (approval)",
    classes: { delete: "eradicate", update: "eradicate" },
  },
  "/worm-data-policies": {
    summary: "WORM data policies: retention that refuses deletion until it ends",
    classes: { delete: "eradicate" },
  },
  "/arrays/factory-reset-token": {
    area: "Identity and security",
    summary: "The token that allows a factory reset of the array (creating it is approved by an admin)",
    roles: { create: "admin", delete: "admin", list: "admin" },
    classes: { create: "eradicate", delete: "array_settings" },
  },
};
