/** The simulated FlashBlade: start one with `startSimulator`, steer it through `sim.control`. */

export { simulatedArrayConfig } from "./array-config.js";
export type { SimControl } from "./control.js";
export { CONTROL_PREFIX } from "./control-http.js";
export type { StateControlInput, StateControlOp } from "./control-state.js";
export type { FailureFault, LatencyFault, ResetFault } from "./faults.js";
export { DEFAULT_API_TOKEN, DEFAULT_IDLE_MS, DEFAULT_USERNAME, type SimulatorOptions } from "./options.js";
export type { LoggedRequest, SimStats } from "./request-log.js";
export { type Simulator, startSimulator } from "./server.js";
export type { TlsMaterial } from "./tls.js";
export { selfSignedCertificate } from "./tls.js";
