/** Break-fix hints from a replica link's `status_details`: the wording of the array names the fix. */

/** The fixes the array's own wording points to (alerts 1111, 1113, 1115, 1116, 1119, 1120 say the same). */
export function detailHints(details: string, remoteObject: string, remote: string): string[] {
  const known: [RegExp, string][] = [
    [
      /bucket does not exist/i,
      `Bucket ${remoteObject} must exist on ${remote}: create it there, or point the link at a bucket that does.`,
    ],
    [
      /ssl|certificate|handshake/i,
      `The TLS handshake with ${remote} fails: check its certificate and the CA certificate group the connection trusts.`,
    ],
    [
      /same name already exists/i,
      `A snapshot of the same name already exists on ${remote}: destroy and eradicate that snapshot on ${remote}.`,
    ],
    [
      /latest replica snapshot|lacks/i,
      `The source lacks the target's latest replica snapshot: destroy and eradicate that snapshot on ${remote} so the next transfer starts from a common one.`,
    ],
    [
      /both.*promoted/i,
      `Both file systems are promoted (expected during a failover): demote one when the failover is over.`,
    ],
    [
      /destroyed/i,
      `The file system on ${remote} was destroyed: recover it there before it is eradicated, or the replicated data is lost.`,
    ],
  ];
  return known.filter(([re]) => re.test(details)).map(([, hint]) => hint);
}
