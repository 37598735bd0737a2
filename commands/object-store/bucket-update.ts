/**
 * `bucket update --versioning`'s precondition read (the verb is the catalogue's): a destroyed bucket is
 * refused, and so is the versioning it already has, in words that name it.
 */
import { UserFacingError } from "../../src/errors.js";
import type { Precheck } from "../catalogue/spec.js";

export const bucketUpdateCheck: Precheck = async (_ctx, { name, args, item }) => {
  if (item?.["destroyed"] === true)
    throw new UserFacingError("DESTROYED", `${name} is destroyed; recover it first.`);
  const was = item?.["versioning"];
  if (args["versioning"] !== undefined && was === args["versioning"]) {
    throw new UserFacingError(
      "NO_CHANGE",
      `Versioning of ${name} is already ${String(was)}. Nothing was changed.`,
    );
  }
  return {};
};
