/**
 * Which IP addresses an outgoing webhook may reach. The rule is an allow-list in spirit: only
 * globally routable unicast addresses are public. Everything in the IANA special-purpose
 * registries (loopback, private, link-local and cloud metadata, CGNAT, documentation,
 * benchmarking, multicast, reserved, broadcast, unspecified) is refused, and an IPv6 address
 * that embeds an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`) is judged by the IPv4 address it carries, so `::ffff:169.254.169.254`
 * and `::ffff:a9fe:a9fe` are refused like `169.254.169.254`.
 */
import { isIPv4, isIPv6 } from "node:net";

type Range = readonly [prefix: readonly number[], bits: number];

/** IPv4 ranges that are never public (RFC 6890 and the IANA IPv4 special-purpose registry). */
const IPV4_FORBIDDEN: readonly Range[] = [
  [[0, 0, 0, 0], 8], // "this network", includes 0.0.0.0
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, includes the 169.254.169.254 metadata service
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, includes 255.255.255.255
];

/** Inside 2000::/3 (global unicast), the blocks that are still special. */
const IPV6_FORBIDDEN_IN_GLOBAL: readonly Range[] = [
  [[0x20, 0x01, 0x00, 0x00], 23], // IETF protocol assignments, includes Teredo 2001::/32
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x20, 0x02], 16], // 6to4: carries an IPv4 address we cannot vouch for
  [[0x3f, 0xff, 0x00], 20], // documentation (RFC 9637)
];

export function ipVersion(address: string): 4 | 6 | null {
  const plain = stripBrackets(address);
  if (isIPv4(plain)) return 4;
  if (isIPv6(plain)) return 6;
  return null;
}

/** True only for a globally routable unicast address; false for anything else or non-IPs. */
export function isPublicAddress(address: string): boolean {
  const plain = stripBrackets(address);
  if (isIPv4(plain)) return isPublicV4(plain.split(".").map(Number));
  if (isIPv6(plain)) return isPublicV6(parseIPv6(plain));
  return false;
}

function isPublicV4(bytes: number[]): boolean {
  return !IPV4_FORBIDDEN.some((range) => inRange(bytes, range));
}

function isPublicV6(bytes: number[]): boolean {
  const embedded = embeddedIPv4(bytes);
  if (embedded !== null) return isPublicV4(embedded);
  // Only 2000::/3 is global unicast: this refuses ::, ::1, fc00::/7 (unique local, including
  // the fd00:ec2::254 metadata address), fe80::/10, ff00::/8 and every other reserved block.
  if (!inRange(bytes, [[0x20], 3])) return false;
  return !IPV6_FORBIDDEN_IN_GLOBAL.some((range) => inRange(bytes, range));
}

/** The IPv4 address carried by an IPv4-mapped, IPv4-compatible or NAT64 IPv6 address. */
function embeddedIPv4(bytes: number[]): number[] | null {
  const tail = bytes.slice(12);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return tail; // ::ffff:0:0/96
  // ::/96 (IPv4-compatible, deprecated); :: and ::1 themselves land in 0.0.0.0/8 and are refused.
  if (zeros(0, 12)) return tail;
  if (inRange(bytes, [[0x00, 0x64, 0xff, 0x9b], 32]) && zeros(4, 12)) return tail; // 64:ff9b::/96
  return null;
}

function inRange(bytes: readonly number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** Parses a valid IPv6 text form (already checked by isIPv6) into 16 bytes. */
function parseIPv6(text: string): number[] {
  let s = text.toLowerCase();
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  const words: number[] = [];
  const toWords = (part: string): number[] => {
    if (part === "") return [];
    const out: number[] = [];
    for (const piece of part.split(":")) {
      if (piece.includes(".")) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split(".").map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(Number.parseInt(piece, 16));
      }
    }
    return out;
  };
  const gap = s.indexOf("::");
  if (gap === -1) {
    words.push(...toWords(s));
  } else {
    const head = toWords(s.slice(0, gap));
    const tail = toWords(s.slice(gap + 2));
    words.push(...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail);
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function stripBrackets(address: string): string {
  return address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
}
