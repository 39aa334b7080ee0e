/**
 * "Send a test": one `velvet.test` event sent right now through the destination's driver (not
 * the outbox: the answer is shown to whoever asked), so a receiver can check its signature
 * handling before any customer event arrives. Null when the account has no such destination;
 * a SecretUnreadableError when this process cannot open the destination's secret.
 */
import type { Deps } from "../../deps.js";
import { newId } from "../../lib/ids.js";
import type { DeliveryResult } from "../alerts/delivery-result.js";
import type { DestinationsDeps } from "./destination-driver.js";
import { openSecret } from "./destination-secrets.js";

export const TEST_EVENT = "velvet.test";
const TEST_TIMEOUT_MS = 15_000;

export async function testDestination(
  deps: Deps & DestinationsDeps,
  input: { accountId: string; destinationId: string },
): Promise<DeliveryResult | null> {
  const row = await deps.db.kysely
    .selectFrom("destinations")
    .selectAll()
    .where("id", "=", input.destinationId)
    .where("account_id", "=", input.accountId)
    .executeTakeFirst();
  if (row === undefined) return null;
  const driver = deps.destinations.get(row.kind);
  if (driver === undefined)
    return { outcome: "failed", statusCode: null, error: `no driver for ${row.kind}` };
  const now = deps.clock.now();
  const body = JSON.stringify({
    type: TEST_EVENT,
    timestamp: new Date(now).toISOString(),
    data: { destinationId: row.id, message: "A test from Velvet: this destination is set up." },
  });
  // Thrown, not a failed delivery: nothing was sent, and what to do is the caller's to say.
  const secret =
    row.secret === null ? null : openSecret(deps.config.storeSync.tokenKey, row.id, row.secret);
  try {
    return await driver.send(
      deps,
      {
        id: row.id,
        accountId: row.account_id,
        kind: row.kind,
        target: row.target,
        settings: JSON.parse(row.settings) as Record<string, unknown>,
        secret,
      },
      { id: newId(now), event: "customer.enriched", body, test: true },
      AbortSignal.timeout(TEST_TIMEOUT_MS),
    );
  } catch (error) {
    return { outcome: "failed", statusCode: null, error: (error as Error).message };
  }
}
