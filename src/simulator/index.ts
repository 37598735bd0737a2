/** The simulated FlashBlade: start one with `startSimulator`, steer it through `sim.control`. */

export { simulatedArrayConfig } from "./array-config.js";
export { DEFAULT_API_TOKEN, DEFAULT_IDLE_MS, type SimulatorOptions } from "./options.js";
export type { LoggedRequest } from "./request-log.js";
export { joinThroughKey } from "./resources/fleets.js";
export { type Simulator, startSimulator } from "./server.js";
export type { TlsMaterial } from "./tls.js";
export { selfSignedCertificate } from "./tls.js";
