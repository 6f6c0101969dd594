import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may go. Private, loopback, link-local, CGNAT, ULA, multicast, documentation
 * and cloud-metadata addresses are refused (SSRF), as are IPv6 forms that embed an IPv4
 * address (mapped, compatible, NAT64, 6to4, Teredo): none is a legitimate public receiver.
 * Development and tests open them with `allowPrivate` or an exact `ip:port` allowlist.
 */
export type AddressPolicy = { allowPrivate: boolean; allowlist: ReadonlySet<string> };

const blocked = new BlockList();
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
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

const FORBIDDEN_NAMES = [/^localhost$/i, /\.localhost$/i, /^metadata\.google\.internal$/i, /\.internal$/i, /\.local$/i];

export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) {
    return blocked.check(ip, 'ipv4');
  }
  if (family === 6) {
    return blocked.check(ip, 'ipv6');
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
