/** An address without the IPv4-mapped IPv6 prefix, so 127.0.0.1 over IPv4 and IPv6 sockets compare equal. */
export function normalisedAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = normalisedAddress(address);
  return plain === '::1' || plain.startsWith('127.');
}
