/**
 * The ready-to-paste request shown on the Overview's first screen and under API Access, with the
 * server's real public URL. Its order is not the README's (Jane's order 1001): a newcomer sends
 * both and gets two customers and two orders. It is a VIP on the offline signals alone, as the
 * README's example is, so the first order a merchant sends shows what Velvet is for; the test
 * beside it holds both examples to what they promise.
 */
import { ORDERS_PATH } from "../../orders/order-route.js";

export const EXAMPLE_BODY = {
  email: "ava@chenarchitects.com",
  firstName: "Ava",
  lastName: "Chen",
  address: { city: "Scarsdale", state: "NY", zipcode: "10583", country: "US" },
  order: { id: "1002", number: "#1002", total: "3100.00", currency: "USD" },
};

/** What the example shows, in the merchant's words (the points are the default weights'). */
export const EXAMPLE_OUTCOME =
  "Ava Chen scores 75, a VIP at the default threshold of 70, with no enrichment provider: a $3,100.00 order (30 points) in the top 1 % of online orders (15), from a ZIP code whose median household income is $250,000+ (25), with a company e-mail address (5).";

export function curlExample(publicBaseUrl: string, apiKey: string | null): string {
  return [
    `export VELVET_API_KEY="${apiKey ?? "sk_live_…paste your key here"}"`,
    "",
    `curl -X POST ${publicBaseUrl}${ORDERS_PATH} \\`,
    `  -H "Authorization: Bearer $VELVET_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    // Shell single quotes keep the newlines: the pretty JSON pastes as it reads.
    `  -d '${JSON.stringify(EXAMPLE_BODY, null, 2).replace(/\n/g, "\n  ")}'`,
  ].join("\n");
}
