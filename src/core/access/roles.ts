/** The role ladder lives at the ground floor (src/vocabulary.ts); core's modules import it from here too. */
export { capRole, maxRole, ROLES, type Role, roleAtLeast } from "../../vocabulary.js";
