/**
 * A Kerberos keytab file (MIT format 0x0502, what `ktutil` and Active Directory's `ktpass` write), as an array
 * reads an uploaded one: each entry's principal, realm, key version and encryption type. The keys themselves are
 * not kept: the simulator only says what the file held. A file that is not one is refused whole.
 */

export interface KeytabEntry {
  principal: string;
  realm: string;
  kvno: number;
  encryption_type: string;
}

/** RFC 3961/8009 encryption type numbers, by the names arrays list them with. */
const ENCTYPES: Readonly<Record<number, string>> = {
  16: "des3-cbc-sha1",
  17: "aes128-cts-hmac-sha1-96",
  18: "aes256-cts-hmac-sha1-96",
  19: "aes128-cts-hmac-sha256-128",
  20: "aes256-cts-hmac-sha384-192",
  23: "arcfour-hmac",
};

/** The entries of `bytes`, or the reason it is not a keytab. */
export function readKeytab(bytes: Buffer): KeytabEntry[] | string {
  if (bytes.length < 2 || bytes[0] !== 0x05 || bytes[1] !== 0x02)
    return "not a keytab file (it must start with the keytab version 0x0502)";
  const entries: KeytabEntry[] = [];
  let at = 2;
  try {
    while (at < bytes.length) {
      const size = bytes.readInt32BE(at);
      at += 4;
      // A negative size is a hole left by a deleted entry.
      if (size <= 0) {
        at += -size;
        continue;
      }
      const end = at + size;
      if (end > bytes.length) return "a keytab entry runs past the end of the file";
      let p = at;
      const text = () => {
        const n = bytes.readUInt16BE(p);
        const s = bytes.subarray(p + 2, p + 2 + n).toString("utf8");
        p += 2 + n;
        return s;
      };
      const count = bytes.readUInt16BE(p);
      p += 2;
      const realm = text();
      const parts = Array.from({ length: count }, text);
      p += 4 + 4; // name type, timestamp
      const vno8 = bytes.readUInt8(p);
      p += 1;
      const enctype = bytes.readUInt16BE(p);
      p += 2;
      p += 2 + bytes.readUInt16BE(p); // the key
      // A 32-bit key version follows where the entry has room for it, and then wins over the 8-bit one.
      const kvno = end - p >= 4 ? bytes.readUInt32BE(p) : vno8;
      entries.push({
        principal: `${parts.join("/")}@${realm}`,
        realm,
        kvno,
        encryption_type: ENCTYPES[enctype] ?? `enctype-${enctype}`,
      });
      at = end;
    }
  } catch {
    return "the keytab file is cut short";
  }
  return entries.length > 0 ? entries : "the keytab file holds no keys";
}
