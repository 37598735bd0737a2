import { generate } from "selfsigned";

export interface TlsMaterial {
  /** PEM certificate chain the server presents; for a self-signed one this is also the CA clients trust. */
  cert: string;
  /** PEM private key. */
  key: string;
}

const VALIDITY_DAYS = 825;

/**
 * A self-signed certificate for the simulator, valid for 127.0.0.1 and localhost. EC keys because RSA key
 * generation would dominate start-up time of every test that starts a simulator.
 */
export async function selfSignedCertificate(commonName = "localhost"): Promise<TlsMaterial> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + VALIDITY_DAYS * 24 * 3600_000);
  const pems = await generate([{ name: "commonName", value: commonName }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
