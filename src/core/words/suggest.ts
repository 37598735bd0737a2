/** "Did you mean" lives at the ground floor (src/suggest.ts), where configuration errors use it too. */
export { didYouMean, editDistance, suggest } from "../../suggest.js";
