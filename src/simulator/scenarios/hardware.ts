/** Simulated hardware (chassis, blades, fabric modules, ports, fans, power) and the network on top of it. */
import type { SimState } from "../state.js";
import { type Item, ports, put } from "./put.js";

const TB = 1000 ** 4;

export interface InfrastructureOptions {
  blades: number;
  /** Names of components to report as unhealthy (demo). */
  unhealthy?: readonly string[];
}

export function seedHardware(state: SimState, opts: InfrastructureOptions): void {
  const bad = new Set(opts.unhealthy ?? []);
  const serial = () =>
    `PCHFL${Math.floor(state.rng() * 1e8)
      .toString()
      .padStart(8, "0")}`;
  const hw = (name: string, type: string, index: number, slot: number, extra: Item = {}): Item => ({
    name,
    id: state.newId(),
    details: bad.has(name) ? "Software process is not healthy: Code 2" : null,
    identify_enabled: false,
    index,
    model: type === "fb" ? "FB-17TB" : type === "ch" ? "CH-FB" : null,
    serial: type === "fan" || type === "eth" ? null : serial(),
    slot,
    speed: null,
    status: bad.has(name) ? "unhealthy" : "healthy",
    temperature: type === "fb" || type === "fm" ? 30 + Math.floor(state.rng() * 12) : null,
    type,
    ...extra,
  });
  const items: Item[] = [hw("CH1", "ch", 1, 1)];
  for (let i = 1; i <= opts.blades; i++) items.push(hw(`CH1.FB${i}`, "fb", i, i));
  for (let m = 1; m <= 2; m++) {
    items.push(hw(`CH1.FM${m}`, "fm", m, m));
    for (let e = 1; e <= 4; e++) items.push(hw(`CH1.FM${m}.ETH${e}`, "eth", e, e, { speed: 40_000_000_000 }));
  }
  for (let f = 1; f <= 6; f++) items.push(hw(`CH1.FAN${f}`, "fan", f, f));
  for (let p = 1; p <= 4; p++) items.push(hw(`CH1.PWR${p}`, "pwr", p, p));
  put(state, "/hardware", items);
  put(
    state,
    "/blades",
    Array.from({ length: opts.blades }, (_, k) => {
      const name = `CH1.FB${k + 1}`;
      return {
        name,
        id: state.newId(),
        details: bad.has(name) ? "Software process is not healthy: Code 2" : null,
        raw_capacity: 17 * TB,
        target: null,
        progress: null,
        status: bad.has(name) ? "unhealthy" : "healthy",
      };
    }),
  );
  put(
    state,
    "/hardware-connectors",
    [1, 2].flatMap((m) =>
      [1, 2, 3, 4].map((e) => ({
        name: `CH1.FM${m}.ETH${e}`,
        id: state.newId(),
        connector_type: "QSFP",
        lane_speed: 10_000_000_000,
        port_count: 4,
        transceiver_type: "40GBASE-SR4",
      })),
    ),
  );
}

/** One link aggregation group, a data and a replication subnet on it, and three interfaces in them. */
export function seedNetwork(state: SimState): void {
  const net = state.network;
  net.lags.set("uplink", {
    name: "uplink",
    id: state.newId(),
    mac_address: "24:a9:37:00:1a:2b",
    ports: ports(state, "CH1.FM1.ETH1", "CH1.FM2.ETH1"),
    port_speed: 40_000_000_000,
    status: "healthy",
  });
  const subnets = [
    { name: "data", prefix: "10.21.100.0/24", gateway: "10.21.100.1", vlan: 0 },
    { name: "replication", prefix: "10.21.200.0/24", gateway: "10.21.200.1", vlan: 200 },
  ];
  for (const s of subnets) {
    net.subnets.set(s.name, { ...s, id: state.newId(), enabled: true, mtu: 9000, lag: "uplink" });
  }
  const vips = [
    { name: "data1", address: "10.21.100.10", subnet: "data", services: ["data"] },
    { name: "data2", address: "10.21.100.11", subnet: "data", services: ["data"] },
    { name: "repl1", address: "10.21.200.10", subnet: "replication", services: ["replication"] },
  ];
  for (const v of vips) {
    net.interfaces.set(v.name, { ...v, id: state.newId(), enabled: true, type: "vip" });
  }
}
