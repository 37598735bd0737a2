/**
 * An array's `api_client:` setting: the bot logs in as an OAuth2 API client registered on the array (REST 2.x facts,
 * auth.md §3) instead of with an API token. The private key, like a token, is never written inline: it comes from a
 * file or an environment variable, is read and checked once here, and travels as a Secret that will not print.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { z } from "zod";
import { Secret } from "./secret.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const apiClientSchema = z
  .strictObject({
    /** The API client's `id` on the array: the assertion's audience. */
    id: z.string().min(1),
    /** The client's `key_id`: the assertion's `kid`. */
    key_id: z.string().min(1),
    /** The client's `issuer`, as registered. */
    issuer: z.string().min(1),
    /** The array user the bot acts as (the assertion's `sub`); its role, capped by the client's max_role, applies. */
    username: z.string().min(1),
    private_key_file: z.string().min(1).optional(),
    private_key_env: z.string().regex(ENV_NAME, "must be an environment variable name").optional(),
    private_key: z
      .never({
        error:
          "an inline private_key is not allowed (config files get copied around); put the PEM in a file named by " +
          "private_key_file, or in an environment variable named by private_key_env",
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    const sources = [c.private_key_file, c.private_key_env].filter((s) => s !== undefined).length;
    if (sources !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["private_key_file"],
        message:
          sources === 0
            ? "give private_key_file or private_key_env (the PEM of the key whose public half the API client holds)"
            : "give only one of private_key_file and private_key_env",
      });
    }
  });

export type ApiClientConfig = z.output<typeof apiClientSchema>;

export interface ResolvedApiClient {
  id: string;
  keyId: string;
  issuer: string;
  username: string;
  privateKey: Secret<KeyObject>;
}

/**
 * The API client with its key read and checked (an RSA private key in PEM, unencrypted: the bot signs RS256);
 * undefined after pushing a problem naming the setting.
 */
export function resolveApiClient(
  c: ApiClientConfig,
  where: string,
  source: {
    env: Readonly<Record<string, string | undefined>>;
    read: (setting: string, path: string, what: string) => string | undefined;
  },
  problems: string[],
): ResolvedApiClient | undefined {
  let pem: string | undefined;
  let setting: string;
  if (c.private_key_env !== undefined) {
    setting = `${where}.api_client.private_key_env`;
    const name = c.private_key_env;
    const value = Object.hasOwn(source.env, name) ? source.env[name] : undefined;
    pem = typeof value === "string" && value.trim() !== "" ? value : undefined;
    if (pem === undefined) problems.push(`${setting}: environment variable ${name} is not set`);
  } else {
    setting = `${where}.api_client.private_key_file`;
    pem = source.read(setting, c.private_key_file ?? "", "private key file");
  }
  if (pem === undefined) return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    // The reason from OpenSSL can quote the input; the setting's name is enough to act on.
    problems.push(`${setting}: holds no readable private key (an unencrypted RSA key in PEM)`);
    return undefined;
  }
  if (key.asymmetricKeyType !== "rsa") {
    problems.push(
      `${setting}: the key is ${key.asymmetricKeyType ?? "not RSA"}; API clients sign with RSA (RS256)`,
    );
    return undefined;
  }
  return {
    id: c.id,
    keyId: c.key_id,
    issuer: c.issuer,
    username: c.username,
    privateKey: new Secret(key),
  };
}
