/** The array client's public surface. */

export { atLeast, compareVersions, KNOWN_VERSIONS } from "../rest-spec/versions.js";
export { FlashBladeClient } from "./client.js";
export { ARRAY_ERROR_CODES, type ArrayErrorCode } from "./errors.js";
export * as filter from "./filter.js";
export { createArrayPool, suggestNames } from "./pool.js";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry.js";
export * from "./schemas.js";
export type * from "./types.js";
export { promotionOf, replicationMetrics } from "./wire.js";
