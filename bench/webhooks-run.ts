/** What one run of the webhooks benchmark measured (see webhooks.ts). */
import type { CpuUsage } from "./cpu.js";
import type { PacedResult } from "./paced-load.js";
import type { DeliveryTally } from "./shopify-deliveries.js";
import type { ConnectionState } from "./webhook-connection.js";
import type { IntakeSettled, WindowRates } from "./webhook-intake.js";

export interface WebhookRun {
  engine: "SQLite" | "PostgreSQL";
  /** Deliveries a second, repeats included. */
  ratePerSec: number;
  warmupSec: number;
  load: PacedResult;
  tally: DeliveryTally;
  cpu: CpuUsage;
  /** The connection after its first sync (before the stream) and after the run. */
  connectionBefore: ConnectionState;
  connectionAfter: ConnectionState;
  settled: IntakeSettled;
  /** Seconds from the last delivery sent until every order was taken; null: not within the wait. */
  takenLagSec: number | null;
  /** The same until every customer was also enriched. */
  enrichedLagSec: number | null;
  /** Orders taken and enrichments stored a second during the measured window. */
  rates: WindowRates;
}
