// The rules of claiming a name on the LAN (RFC 6762 §8–9) that need no socket: the names tried after a conflict, and
// which of two hosts probing for one name at the same time wins.
import type makeMulticastDns from 'multicast-dns';

type DnsRecord = makeMulticastDns.ResponseOutgoingPacket['answers'][number];
/** A record with data and a TTL: any but the OPT pseudo-record of EDNS. */
export type DataRecord = Exclude<DnsRecord, { type: 'OPT' }>;

export function hasData(record: DnsRecord): record is DataRecord {
  return record.type !== 'OPT';
}

/** The instance name of the `attempt`th try: "Tabletop Relay on Mira", then "Tabletop Relay on Mira (2)" (RFC 6763 §9). */
export function instanceNameOf(base: string, attempt: number): string {
  return attempt === 1 ? base : `${base} (${attempt})`;
}

/** The host name of the `attempt`th try: "tabletop-relay-mira.local", then "tabletop-relay-mira-2.local". */
export function hostNameOf(base: string, attempt: number): string {
  return attempt === 1 ? `${base}.local` : `${base}-${attempt}.local`;
}

/** RR type numbers of the records the relay claims (RFC 1035, 2782), which §8.2.1 compares first. */
const TYPE_NUMBERS: Record<string, number> = { A: 1, TXT: 16, SRV: 33 };

/**
 * Simultaneous probe tiebreaking (RFC 6762 §8.2.1): the two hosts' proposed records for one name, each sorted, are
 * compared pair by pair, by type and then by their rdata's bytes; the lexicographically later set wins, and with equal
 * pairs the longer set does. Positive when ours wins, negative when theirs does, 0 when they are the same records (our
 * own probe, heard back). A record this cannot encode counts as the other host's win: deferring is the safe side.
 */
export function compareProposals(ours: readonly DataRecord[], theirs: readonly DataRecord[]): number {
  const ourKeys = sortedKeys(ours);
  const theirKeys = sortedKeys(theirs);
  if (!ourKeys || !theirKeys) return -1;
  for (let index = 0; index < Math.min(ourKeys.length, theirKeys.length); index += 1) {
    const order = Buffer.compare(ourKeys[index]!, theirKeys[index]!);
    if (order !== 0) return order;
  }
  return ourKeys.length - theirKeys.length;
}

/** Each record as the bytes §8.2.1 compares (its type, then its rdata), sorted; undefined if one cannot be encoded. */
function sortedKeys(records: readonly DataRecord[]): Buffer[] | undefined {
  const keys: Buffer[] = [];
  for (const record of records) {
    const type = TYPE_NUMBERS[record.type];
    const data = type === undefined ? undefined : rdata(record);
    if (!data) return undefined;
    const typeBytes = Buffer.alloc(2);
    typeBytes.writeUInt16BE(type!);
    keys.push(Buffer.concat([typeBytes, data]));
  }
  return keys.sort(Buffer.compare);
}

function rdata(record: DataRecord): Buffer | undefined {
  const data: unknown = record.data;
  switch (record.type) {
    case 'A':
      return typeof data === 'string' && /^\d{1,3}(\.\d{1,3}){3}$/.test(data)
        ? Buffer.from(data.split('.').map(Number))
        : undefined;
    case 'TXT':
      return Buffer.concat(textStrings(data).map((text) => Buffer.concat([Buffer.from([text.length]), text])));
    case 'SRV': {
      const {
        priority = 0,
        weight = 0,
        port,
        target,
      } = data as { priority?: number; weight?: number; port: number; target: string };
      const numbers = Buffer.alloc(6);
      numbers.writeUInt16BE(priority, 0);
      numbers.writeUInt16BE(weight, 2);
      numbers.writeUInt16BE(port, 4);
      return Buffer.concat([numbers, wireName(target)]);
    }
    default:
      return undefined;
  }
}

/** A TXT record's strings as bytes, whether they were given as text (sent) or came as buffers (heard). */
export function textStrings(data: unknown): Buffer[] {
  const strings = Array.isArray(data) ? data : [data];
  return strings.map((text) => (Buffer.isBuffer(text) ? text : Buffer.from(String(text))));
}

/** A name as DNS writes it uncompressed: each label after its length, then a zero. */
function wireName(name: string): Buffer {
  const labels = name.split('.').filter((label) => label !== '');
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([Buffer.byteLength(label)]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}
