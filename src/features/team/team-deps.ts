/**
 * What the team use cases need, narrowly: the database, the clock, the log, the public address
 * for links, and the SMTP sender the alerts already hold (Velvet's own mails go through it, as
 * sign-up and alert-address confirmations do). `Deps` satisfies it; main.ts and the CLI pass theirs.
 */
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { Db } from "../../db/connect.js";
import type { Clock } from "../../lib/clock.js";
import type { AlertDelivery } from "../alerts/alert-deps.js";

export interface TeamDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Pick<Config, "publicBaseUrl"> & { alerts: Pick<Config["alerts"], "from"> };
  alerts: Pick<AlertDelivery, "sendMail" | "emailEnabled">;
}
