/**
 * The fake Shopify Admin API (test/fakes/shopify-admin.ts) in a process of its own: the shop the
 * webhooks benchmark's store connection points at. Velvet's worker, starting, gives every
 * connection its `store-sync` and `store-webhooks` jobs, and the sync job reads the shop at once:
 * against this fake it reads an empty page (no order updated since the connection was
 * made) and is done until STORE_SYNC_INTERVAL_SECONDS, so nothing fails and nothing outside the
 * machine is called. The shop holds no orders: every order of the benchmark comes by webhook.
 * Prints one JSON line on stdout, `{shop, token}`, once it listens; on exit it says which
 * requests it answered. Run alone:
 *   node --import tsx bench/fake-shopify-server.ts
 */
import { startFakeShopify } from "../test/fakes/shopify-admin.js";
import { runUntilParentGoes } from "./fake-process.js";

const shopify = await startFakeShopify({ token: process.env.BENCH_SHOPIFY_TOKEN ?? "shpat_bench" });
process.stdout.write(`${JSON.stringify({ shop: shopify.shop, token: shopify.token })}\n`);

runUntilParentGoes({
  report: () => {
    const answered = shopify.requests.map((r) => `${r.path} ${r.answered}`);
    return `fake shopify: ${answered.length} request(s) answered: ${answered.join(", ") || "none"}`;
  },
  close: () => shopify.close(),
});
