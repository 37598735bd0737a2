/**
 * Deterministic randomness for the simulator: ids, generated names and synthetic metrics all derive from the
 * state's seed, so two simulators started with the same seed serve byte-identical answers.
 */

/** A small, fast PRNG (mulberry32). Good enough for test data; never for secrets on a real system. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex32(rng: () => number): string {
  const n = Math.floor(rng() * 4294967296);
  return (
    (BYTE_HEX[n >>> 24] as string) +
    BYTE_HEX[(n >>> 16) & 255] +
    BYTE_HEX[(n >>> 8) & 255] +
    BYTE_HEX[n & 255]
  );
}

/** UUID v4-shaped ids drawn from `rng` (four draws per id, so a 100,000-object scenario stays fast). */
export function createIdSource(rng: () => number): () => string {
  return () => {
    const a = hex32(rng);
    const b = hex32(rng);
    const c = hex32(rng);
    const d = hex32(rng);
    const variant = "89ab"[Number.parseInt(c[0] ?? "0", 16) & 3];
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
  };
}

/** Uppercase letters, used for access key ids (`PSFB…`). */
export function randomLetters(rng: () => number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += String.fromCharCode(65 + Math.floor(rng() * 26));
  return out;
}

const SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function randomSecret(rng: () => number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += SECRET_ALPHABET[Math.floor(rng() * SECRET_ALPHABET.length)];
  return out;
}

/** String hash (FNV-1a), to derive a stable per-object key for synthetic series. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A value in [0, 1) that depends only on its inputs: the same sample always reads the same. */
export function noise(seed: number, key: number, step: number): number {
  let h = (seed ^ Math.imul(key, 0x9e3779b1) ^ Math.imul(step | 0, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
