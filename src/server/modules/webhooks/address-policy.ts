import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Where webhooks may go (docs/product.md#webhooks). A user-chosen URL is a server-side request: without
 * these checks it could reach the database, the cloud metadata service (169.254.169.254) or anything
 * else on the private network. Only publicly routable unicast addresses pass, unless the operator set
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (tests, private deployments).
 */

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

interface Range4 {
  base: number;
  bits: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): Range4 => {
  const [ip, bits] = cidr.split('/') as [string, string];
  return { base: parseIPv4(ip)!, bits: Number(bits), reason };
};

/** IANA special-purpose IPv4 ranges that are not reachable public unicast. */
const BLOCKED_V4: Range4[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared address space (CGNAT)'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', '6to4 relay anycast'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    // Decimal only: "0x7f.1" or "0177.0.0.1" are not addresses here (the resolver never answers them).
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

function inRange4(ip: number, range: Range4): boolean {
  if (range.bits === 0) return true;
  const size = 2 ** (32 - range.bits);
  return Math.floor(ip / size) === Math.floor(range.base / size);
}

export function classifyIPv4(text: string): AddressVerdict {
  const ip = parseIPv4(text);
  if (ip === null) return { allowed: false, reason: 'not an IPv4 address' };
  for (const range of BLOCKED_V4) {
    if (inRange4(ip, range)) return { allowed: false, reason: range.reason };
  }
  return { allowed: true };
}

/** Eight 16-bit groups, or null. Accepts `::` compression, a dotted IPv4 tail and a `%zone`. */
export function parseIPv6(input: string): number[] | null {
  let text = input.split('%')[0] ?? '';
  if (isIP(text) !== 6) return null;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    // "::ffff:1.2.3.4" -> "::ffff:102:304": the dotted tail is just the last two groups.
    const value = parseIPv4(tail);
    if (value === null) return null;
    text = `${text.slice(0, lastColon + 1)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  const all = [...head, ...new Array<number>(fill).fill(0), ...rest];
  return all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

const embeddedV4 = (g: number[], hi: number, lo: number) => `${g[hi]! >> 8}.${g[hi]! & 255}.${g[lo]! >> 8}.${g[lo]! & 255}`;

export function classifyIPv6(text: string): AddressVerdict {
  const g = parseIPv6(text);
  if (!g) return { allowed: false, reason: 'not an IPv6 address' };
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);

  if (zeroUpTo(8)) return { allowed: false, reason: 'unspecified' };
  if (zeroUpTo(7) && g[7] === 1) return { allowed: false, reason: 'loopback' };
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address is what gets reached.
  if (zeroUpTo(5) && g[5] === 0xffff) return withV4(classifyIPv4(embeddedV4(g, 6, 7)), 'IPv4-mapped');
  if (zeroUpTo(6)) return withV4(classifyIPv4(embeddedV4(g, 6, 7)), 'IPv4-compatible');
  // NAT64 well-known prefix 64:ff9b::/96 translates to the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return withV4(classifyIPv4(embeddedV4(g, 6, 7)), 'NAT64');
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return { allowed: false, reason: 'local-use NAT64' };
  // 6to4 (2002::/16) carries an IPv4 address in groups 1-2.
  if (g[0] === 0x2002) return withV4(classifyIPv4(embeddedV4(g, 1, 2)), '6to4');

  const first = g[0]!;
  if ((first & 0xff00) === 0xff00) return { allowed: false, reason: 'multicast' };
  if ((first & 0xffc0) === 0xfe80) return { allowed: false, reason: 'link-local' };
  if ((first & 0xffc0) === 0xfec0) return { allowed: false, reason: 'site-local' };
  if ((first & 0xfe00) === 0xfc00) return { allowed: false, reason: 'unique-local' };
  if (first === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return { allowed: false, reason: 'discard-only' };
  if (first === 0x2001 && g[1] === 0x0db8) return { allowed: false, reason: 'documentation' };
  if (first === 0x3fff && g[1]! < 0x1000) return { allowed: false, reason: 'documentation' };
  // 2001::/23: IETF protocol assignments, Teredo (2001::/32) among them.
  if (first === 0x2001 && g[1]! < 0x0200) return { allowed: false, reason: 'IETF protocol assignments' };
  // Everything routable on the internet today lives in 2000::/3.
  if ((first & 0xe000) !== 0x2000) return { allowed: false, reason: 'not global unicast' };
  return { allowed: true };
}

function withV4(verdict: AddressVerdict, kind: string): AddressVerdict {
  return verdict.allowed ? verdict : { allowed: false, reason: `${kind} ${verdict.reason}` };
}

/** Whether an IP address (either family) may receive webhooks when private targets are not allowed. */
export function classifyAddress(address: string): AddressVerdict {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) return classifyIPv4(address);
  if (family === 6) return classifyIPv6(address);
  return { allowed: false, reason: 'not an IP address' };
}

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export interface VettedTarget {
  url: URL;
  /** The address to connect to: the one that was checked (no second lookup to rebind). */
  address: string;
  family: 4 | 6;
}

export interface VetOptions {
  allowPrivate: boolean;
  /** Resolver; node's (getaddrinfo, like every other client on the machine) by default. */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

const systemResolve = (hostname: string) => lookup(hostname, { all: true, verbatim: true });

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks a webhook URL right before it is called: scheme, then every address its host resolves to.
 * One private address among several refuses the host (an attacker controls which one gets used).
 * Throws TargetRefusedError with a message fit for the delivery log.
 */
export async function vetTarget(rawUrl: string, options: VetOptions): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TargetRefusedError('The webhook URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivate)) {
    throw new TargetRefusedError('Webhook URLs must use https');
  }
  if (url.username || url.password) throw new TargetRefusedError('Webhook URLs cannot carry credentials');
  const host = hostOf(url);
  const literal = isIP(host);
  let addresses: Array<{ address: string; family: number }>;
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new TargetRefusedError(
        code === 'ENOTFOUND' || code === 'ENODATA'
          ? `The host ${host} could not be found`
          : `The host ${host} could not be resolved (${code ?? 'error'})`,
      );
    }
    if (addresses.length === 0) throw new TargetRefusedError(`The host ${host} could not be found`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.allowed) {
        throw new TargetRefusedError(`The host ${host} resolves to a ${verdict.reason} address (${address}), which webhooks cannot reach`);
      }
    }
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
