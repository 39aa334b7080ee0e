/**
 * What an alert channel declares about itself. Each channel is one folder under channels/ that
 * exports one `AlertChannelDefinition`; channel-registry.ts lists them, and everything that
 * names channels (the worker's task list, the enqueue targets, labels, the owners' outage
 * notice, account closing, `velvet account set`, Settings → Alerts) is built from that list.
 *
 * Glossary:
 * - target: where an alert goes, as stored on the alert and shown in the log (masked when the
 *   setting is a secret); null when the account has not set the channel up.
 * - setting: one value a person types for the channel (a webhook URL, an address list), stored
 *   as data in `channel_settings` (channel-settings-store.ts), sealed when it is a secret; ""
 *   clears it.
 * - driver: how one alert is sent (deliver-alert.ts runs it: attempts, retries, the log).
 */
import type { Kysely, Transaction } from "kysely";
import type { AlertChannel, Database } from "../../../db/schema.js";
import type { Deps } from "../../../deps.js";
import type { TaskDefinition, TaskType } from "../../../jobs/task.js";
import type { MetricsDeps } from "../../metrics/metrics.js";
import type { AlertDelivery } from "../alert-deps.js";
import type { AlertJobPayload, AlertJobPayloadSchema } from "../alert-job.js";
import type { WebhookPolicy } from "../webhook-url.js";
import type { ChannelValues } from "./channel-values.js";

export type { ChannelValues };

export type SettingCheck = { ok: true; stored: string | null } | { ok: false; reason: string };

export interface ChannelSetting {
  /**
   * Its name among the channel's settings, unique across channels: the row of
   * `channel_settings` that holds it (channel-settings-store.ts), the form field
   * (`channel.<key>`) and the key of `ChannelValues`.
   */
  key: string;
  /** The CLI option's flags and help (`velvet account set`). */
  cli: { flags: string; help: string };
  /** The line `velvet account set` prints for it, before the value. */
  cliLabel: string;
  /** A secret is never shown, logged or audited in full: `show` masks it. */
  secret: boolean;
  /** Its key in an `alert_settings.changed` audit record. */
  auditKey: string;
  /**
   * What the audit record says of a change (never a secret's value); undefined: unchanged.
   */
  audit(before: string | null, after: string | null): unknown;
  /** Checks what a person typed ("" clears: null) and gives the text to store. */
  check(raw: string, policy: WebhookPolicy): SettingCheck;
  /** The stored value as it may be shown (masked for a secret); null when not set. */
  show(stored: string | null): string | null;
  /**
   * The value as `velvet account set` prints it: `show`, and what the channel knows beside it
   * (an address still awaiting confirmation); null when not set.
   */
  describe?(db: Kysely<Database>, accountId: string, stored: string | null): Promise<string | null>;
}

export interface AlertChannelDefinition<Name extends AlertChannel = AlertChannel> {
  name: Name;
  /** How the dashboard names it ("Team chat"). */
  label: string;
  /** How `velvet alerts list` names it ("Chat"). */
  shortLabel: string;
  /** How a sentence names it ("VIP alerts by team chat (webhook) have been failing"). */
  inSentence: string;
  /** Its delivery task, carrying the alert's id. */
  task: TaskType<typeof AlertJobPayloadSchema>;
  settings: readonly ChannelSetting[];
  /** Where a new alert goes for an account with these settings; null: the channel is off. */
  target(values: ChannelValues): string | null;
  /** The worker's task that delivers one alert (paced and retried as the channel needs). */
  deliveryTask(delivery: AlertDelivery): TaskDefinition<AlertJobPayload, Deps & MetricsDeps>;
  /**
   * What else the channel keeps about an account beyond its settings (e-mail: addresses awaiting
   * confirmation), removed when the account is closed.
   */
  closeAccount?(trx: Transaction<Database> | Kysely<Database>, accountId: string): Promise<void>;
}
