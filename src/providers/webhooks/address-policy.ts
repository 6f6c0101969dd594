import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may go. Private, loopback, link-local, CGNAT, ULA, multicast, documentation
 * and cloud-metadata addresses are refused (SSRF). An IPv6 address that embeds an IPv4 address
 * (mapped, compatible, SIIT-translated, NAT64, 6to4) is judged by the address it embeds, so
 * `::ffff:10.0.0.1` is refused exactly as `10.0.0.1` is and `::ffff:8.8.8.8` is allowed as
 * `8.8.8.8` is. Development and tests open them with `allowPrivate` or an exact `ip:port` allowlist.
 */
export type AddressPolicy = { allowPrivate: boolean; allowlist: ReadonlySet<string> };

// Two lists, one per family, on purpose: Node's BlockList matches an IPv4 address against IPv6
// rules through its IPv4-mapped form, so one list holding `::ffff:0:0/96` refused every IPv4
// address. Each list below is only ever asked about its own family.
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

/** Native IPv6 ranges refused outright (the embedded-IPv4 ranges are decided by what they embed). */
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 for local use (RFC 8215): by definition a translator inside someone's network.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // IETF protocol assignments, Teredo (2001::/32) included: tunnels and special purposes, not receivers.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (zone id already refused by the caller), or null if malformed. */
function ipv6Bytes(ip: string): Uint8Array | null {
  let text = ip;
  const bytes = new Uint8Array(16);
  let tail: number[] = [];
  // A trailing dotted quad (`::ffff:1.2.3.4`) is the last two groups.
  const lastColon = text.lastIndexOf(':');
  const quad = text.slice(lastColon + 1);
  if (quad.includes('.')) {
    if (isIP(quad) !== 4) {
      return null;
    }
    tail = quad.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) {
    return null;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const groups = halves.length === 2 ? [...head, ...new Array(8 - head.length - rest.length).fill(0), ...rest] : head;
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) {
    return null;
  }
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  if (tail.length === 4) {
    bytes.set(tail, 12);
  }
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const quad = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/**
 * The IPv4 address an IPv6 address stands for, where it stands for one: IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-compatible (`::/96`), SIIT-translated (`::ffff:0:0:0/96`), NAT64
 * well-known prefix (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
export function embeddedIpv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  if (!b) {
    return null;
  }
  const zeros = (n: number) => new Array<number>(n).fill(0);
  if (startsWith(b, [...zeros(10), 0xff, 0xff]) || startsWith(b, zeros(12))) {
    return quad(b, 12);
  }
  if (startsWith(b, [...zeros(8), 0xff, 0xff, 0, 0])) {
    return quad(b, 12);
  }
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)])) {
    return quad(b, 12);
  }
  if (startsWith(b, [0x20, 0x02])) {
    return quad(b, 2);
  }
  return null;
}

const FORBIDDEN_NAMES = [/^localhost$/i, /\.localhost$/i, /^metadata\.google\.internal$/i, /\.internal$/i, /\.local$/i];

export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) {
    return blockedV4.check(ip, 'ipv4');
  }
  if (family === 6) {
    // A zone id (`fe80::1%eth0`) only means something on a link: never a public receiver.
    if (ip.includes('%') || blockedV6.check(ip, 'ipv6')) {
      return true;
    }
    const embedded = embeddedIpv4(ip);
    return embedded === null ? ipv6Bytes(ip) === null : blockedV4.check(embedded, 'ipv4');
  }
  return true;
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Whether a resolved address may be connected to on this port. */
export function addressAllowed(ip: string, port: number, policy: AddressPolicy): boolean {
  if (policy.allowPrivate || !isForbiddenAddress(ip)) {
    return true;
  }
  const key = isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
  return policy.allowlist.has(key);
}

/**
 * The save-time check: what can be decided without DNS. Returns a message (prefixed by the
 * caller with the field name) or null. Hostnames are checked again at connect time.
 */
export function webhookUrlProblem(raw: string, policy: AddressPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    return 'must be an absolute http or https URL with a host';
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not contain a user name or password';
  }
  const host = unbracket(url.hostname);
  const port = defaultPort(url);
  if (isIP(host)) {
    return addressAllowed(host, port, policy)
      ? null
      : 'must not point to a private, loopback, link-local or reserved address';
  }
  // `localhost.` is `localhost`: a fully qualified name's trailing dot must not slip past the names below.
  const name = host.replace(/\.$/, '');
  if (!policy.allowPrivate && FORBIDDEN_NAMES.some((re) => re.test(name)) && !policy.allowlist.has(`${host}:${port}`)) {
    return 'must not point to a local or internal host name';
  }
  return null;
}
