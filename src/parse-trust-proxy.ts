/**
 * TRUST_PROXY: which X-Forwarded-For entries name the client (http/app.ts hands the answer to
 * Fastify). Trusting every entry would let any client choose its own address, so `true` is
 * refused with the two forms that say which proxies are ours.
 */
import { isIP } from "node:net";
import { ConfigError } from "./config-error.js";

/** false (none), the number of proxy hops in front, or the proxies' addresses and CIDRs. */
export type TrustProxy = false | number | string[];

const TRUST_PROXY_HELP =
  "write the number of proxies in front of Velvet (TRUST_PROXY=1) or their addresses and CIDRs (TRUST_PROXY=10.0.0.0/8,192.168.1.5)";

/** TRUST_PROXY: unset/false, a hop count, or addresses and CIDRs; `true` is refused. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "" || v === "false" || v === "0" || v === "no") return false;
  if (v === "true" || v === "yes") {
    throw new ConfigError(
      `TRUST_PROXY=${value} would trust every X-Forwarded-For entry, so any client could choose its own address; ${TRUST_PROXY_HELP}`,
    );
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 20)
      throw new ConfigError(`TRUST_PROXY: ${hops} hops is not plausible; ${TRUST_PROXY_HELP}`);
    return hops;
  }
  const entries = v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY: "${entry}" is not an address or CIDR; ${TRUST_PROXY_HELP}`,
      );
    }
  }
  return entries;
}
