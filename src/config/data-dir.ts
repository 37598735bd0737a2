/**
 * Where the durable store lives. The configuration file's `store.data_dir` wins; without it the environment's
 * ARRAY_CHATOPS_DATA_DIR (the container image points it at its data volume, so a read-only config mount is
 * never written to); without either, `data` beside the configuration file. Relative paths are taken from the
 * configuration file's directory, absolute ones as they are.
 */
import { isAbsolute, resolve } from "node:path";
import { UserFacingError } from "../errors.js";
import type { StoreConfig } from "./alerts.js";

export const DATA_DIR_ENV = "ARRAY_CHATOPS_DATA_DIR";
const DEFAULT_DATA_DIR = "data";

/** The store section with an absolute data_dir (memory and Redis stores have none). */
export function resolveDataDir(
  store: StoreConfig,
  env: Readonly<Record<string, string | undefined>>,
  baseDir: string,
): StoreConfig {
  if (store.kind !== "sqlite") return store;
  const fromEnv = env[DATA_DIR_ENV];
  if (store.data_dir === undefined && fromEnv !== undefined && fromEnv.trim() === "") {
    throw new UserFacingError(
      "CONFIG_DATA_DIR_EMPTY",
      `${DATA_DIR_ENV} is set but empty; unset it or give a directory (e.g. /app/data).`,
    );
  }
  const chosen = store.data_dir ?? fromEnv?.trim() ?? DEFAULT_DATA_DIR;
  return { ...store, data_dir: isAbsolute(chosen) ? chosen : resolve(baseDir, chosen) };
}
