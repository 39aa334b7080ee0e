/**
 * Starts bench/fake-shopify-server.ts in its own process and reads back the shop's address and
 * Admin API token it prints (its stdout goes to a log file, like every benchmark child).
 */
import path from "node:path";
import { startChild } from "./children.js";
import { readEnvLine } from "./fake-providers-process.js";

export interface FakeShopifyProcess {
  /** The shop's address as `--shop` takes it (loopback, allowed by WEBHOOKS_ALLOW_PRIVATE). */
  shop: string;
  token: string;
  stop(): Promise<void>;
}

export async function startFakeShopifyProcess(
  dir: string,
  token: string,
): Promise<FakeShopifyProcess> {
  const logFile = path.join(dir, "fake-shopify.log");
  const child = startChild(
    process.execPath,
    ["--import", "tsx", path.resolve("bench", "fake-shopify-server.ts")],
    { env: { ...process.env, BENCH_SHOPIFY_TOKEN: token }, logFile },
  );
  const printed = await readEnvLine(logFile, child);
  return {
    shop: printed.shop as string,
    token: printed.token as string,
    stop: () => child.stop(),
  };
}
