/** The ready-to-paste request shown under API Access, with the server's real public URL. */
import { ORDERS_PATH } from "../../orders/order-route.js";

const EXAMPLE_BODY = {
  email: "jane.doe@example.com",
  firstName: "Jane",
  lastName: "Doe",
  address: { city: "New York", state: "NY", zipcode: "10021", country: "US" },
  order: { id: "1001", number: "#1001", total: "250.00", currency: "USD" },
};

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
