/**
 * Which IP addresses an outgoing webhook may reach. The rule is an allow-list in spirit: only
 * globally routable unicast addresses are public. ipaddr.js names the IANA special-purpose
 * ranges (loopback, private, link-local and cloud metadata, CGNAT, documentation, benchmarking,
 * multicast, reserved, broadcast, unspecified, Teredo, 6to4, …); anything it does not call
 * `unicast` is refused. Two rules of ours sit on top:
 * - an IPv6 address that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, NAT64
 *   `64:ff9b::a.b.c.d`) is judged by that IPv4 address, so `::ffff:169.254.169.254` and
 *   `::ffff:a9fe:a9fe` are refused like `169.254.169.254`, and `64:ff9b::808:808` is allowed;
 * - other IPv6 must be inside 2000::/3 (the only global unicast block) and outside 2001::/23
 *   (IETF protocol assignments), which ipaddr.js leaves partly as `unicast`.
 * Only Node's own strict notation checks pass (no `2130706433`, octal or hex IPv4 forms).
 */
import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
const IETF_ASSIGNMENTS = ipaddr.parseCIDR("2001::/23");

export function ipVersion(address: string): 4 | 6 | null {
  const plain = stripBrackets(address);
  if (isIPv4(plain)) return 4;
  if (isIPv6(plain)) return 6;
  return null;
}

/** True only for a globally routable unicast address; false for anything else or non-IPs. */
export function isPublicAddress(address: string): boolean {
  const plain = stripBrackets(address);
  if (!isIPv4(plain) && !isIPv6(plain)) return false;
  // process(): an IPv4-mapped IPv6 address becomes the IPv4 address it carries.
  const parsed = ipaddr.process(plain);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.match(NAT64)) {
    return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() === "unicast";
  }
  return v6.match(GLOBAL_UNICAST) && !v6.match(IETF_ASSIGNMENTS) && v6.range() === "unicast";
}

function stripBrackets(address: string): string {
  return address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
}
