import { describe, expect, it } from "vitest";
import { ipVersion, isPublicAddress } from "./ip-address.js";

describe("isPublicAddress", () => {
  const forbidden = [
    // IPv4: loopback, private, link-local and metadata, CGNAT, unspecified, multicast, reserved
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "0.1.2.3",
    "192.0.0.8",
    "192.0.2.10",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    // IPv6: loopback, unspecified, unique local, link-local, multicast, metadata, documentation
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fd00:ec2::254",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "2001:db8::1",
    "2001::1", // Teredo
    "2002:7f00:1::1", // 6to4
    "100::1", // discard-only
    // IPv4 inside IPv6, every notation
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "0:0:0:0:0:ffff:a9fe:a9fe",
    "::ffff:10.0.0.1",
    "::ffff:0.0.0.0",
    "::127.0.0.1", // IPv4-compatible
    "::a9fe:a9fe",
    "64:ff9b::a9fe:a9fe", // NAT64
    "64:ff9b::127.0.0.1",
    "[::1]",
    // not an IP at all
    "localhost",
    "",
  ];
  it.each(forbidden)("refuses %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "52.84.1.1",
    "100.63.255.255", // just below CGNAT
    "100.128.0.0", // just above
    "172.15.255.255",
    "172.32.0.0",
    "169.253.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "[2606:4700:4700::1111]",
  ];
  it.each(allowed)("allows %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it("tells the IP version, or null for a name", () => {
    expect(ipVersion("127.0.0.1")).toBe(4);
    expect(ipVersion("[::1]")).toBe(6);
    expect(ipVersion("hooks.slack.com")).toBeNull();
  });
});
