/** The array client's public surface. */

export * as filter from "./filter.js";
export * from "./schemas.js";
export type * from "./types.js";
export { promotionOf } from "./wire.js";
