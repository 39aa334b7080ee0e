/**
 * Table types for Kysely. Both engines store the same shapes: ids are UUID text, instants are
 * integer milliseconds since the epoch (UTC), flags are 0/1 integers, money is an exact decimal
 * string, and structured values are JSON text. Keeping one representation means one set of
 * queries and no per-engine conversions.
 *
 * The tables live by area in db/schema/, each file with the types of one part of the product;
 * this file assembles them into `Database` and re-exports every type, so code imports them all
 * from here. It keeps the alert channel and destination kind names, and the tables that name a
 * channel or a kind: channels and kinds add their names by declaration merging on this module
 * (`declare module "…/db/schema.js"`), which merges only with an interface declared in it, and
 * the area files sit below this file (it imports them), so none of them may import these names.
 */
import type { Generated } from "kysely";
import type {
  AccountSettingsTable,
  AccountsTable,
  ApiKeysTable,
  StoresTable,
} from "./schema/accounts.js";
import type {
  AlertAttemptsTable,
  AlertEmailConfirmationsTable,
  AlertStatus,
  ChannelSettingsTable,
} from "./schema/alerts.js";
import type { AuditEventsTable } from "./schema/audit.js";
import type { BudgetMonthsTable, ProviderSpendTable, UsageChargesTable } from "./schema/billing.js";
import type {
  CustomersTable,
  ForgottenOrdersTable,
  OrdersTable,
} from "./schema/customers-and-orders.js";
import type {
  DestinationAttemptsTable,
  DestinationDeliveriesTable,
} from "./schema/destinations.js";
import type {
  EnrichmentsTable,
  ProviderResultsTable,
  RejudgeCursorsTable,
} from "./schema/enrichment.js";
import type { JobsTable } from "./schema/jobs.js";
import type { ExchangeRatesTable, ZipIncomesTable } from "./schema/reference-data.js";
import type {
  AuthAttemptsTable,
  KnownDevicesTable,
  SignupRequestsTable,
  ThrottleLocksTable,
} from "./schema/security.js";
import type {
  ReadinessProbeTable,
  SharedLimitsTable,
} from "./schema/shared-limits-and-readiness.js";
import type { StoreConnectionsTable, StoreEventsTable } from "./schema/store-sync.js";
import type {
  PasswordResetsTable,
  SessionsTable,
  UserInvitationsTable,
  UsersTable,
} from "./schema/team.js";

export type * from "./schema/accounts.js";
export type * from "./schema/alerts.js";
export type * from "./schema/audit.js";
export type * from "./schema/billing.js";
export type * from "./schema/customers-and-orders.js";
export type * from "./schema/destinations.js";
export type * from "./schema/enrichment.js";
export type * from "./schema/jobs.js";
export type * from "./schema/reference-data.js";
export type * from "./schema/security.js";
export type * from "./schema/shared-limits-and-readiness.js";
export type * from "./schema/store-sync.js";
export type * from "./schema/team.js";

/**
 * The alert channels' names, as `alerts.channel` and the outage records store them: each channel
 * adds its own in its folder (features/alerts/channels/<name>/<name>-channel.ts) by declaration
 * merging, `declare module "…/db/schema.js" { interface AlertChannelNames { <name>: true } }`,
 * so a new channel needs no edit here; the registry checks its list against these names.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each channel (declaration merging)
export interface AlertChannelNames {}
export type AlertChannel = keyof AlertChannelNames & string;

export interface AlertsTable {
  id: string;
  account_id: string;
  customer_id: string;
  channel: AlertChannel;
  status: AlertStatus;
  /** Where it goes: the webhook host (never the full secret URL) or the e-mail recipients. */
  target: string;
  score: number;
  threshold: number;
  /** Stable across retries: the e-mail Message-ID, the chat message's idempotency reference. */
  message_id: string;
  attempts: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
  /**
   * The key the verdict links in this alert's message are signed with (features/verdicts);
   * null for alerts written before verdicts existed, whose messages carry no links.
   */
  verdict_secret: Generated<string | null>;
}

export type VerdictValue = "right" | "wrong";
/** Where a verdict was given: the dashboard, the CLI, or the links of an alert on that channel. */
export type VerdictSource = "dashboard" | "cli" | AlertChannel;

/** A merchant's latest verdict on a VIP: one per customer, latest wins. */
export interface VipVerdictsTable {
  customer_id: string;
  account_id: string;
  verdict: VerdictValue;
  source: VerdictSource;
  /** The dashboard user who gave it; null from an alert's link or the command line. */
  given_by: string | null;
  given_at: number;
}

/** An account's alert channel that is failing now; deleted by its next delivery. */
export interface AlertChannelOutagesTable {
  account_id: string;
  channel: AlertChannel;
  failing_since: number;
  last_error: string | null;
  /** When the account's owners were told the channel is failing (once per outage). */
  owner_notified_at: number | null;
}

/**
 * The destination kinds' names, as `destinations.kind` stores them: each kind adds its own in
 * its driver (features/destinations/<kind>/<kind>-driver.ts) by declaration merging,
 * `declare module "…/db/schema.js" { interface DestinationKindNames { <kind>: true } }`, so a
 * new kind needs no edit here; the registry (destination-kinds.ts) is keyed by these names.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each kind (declaration merging)
export interface DestinationKindNames {}
export type DestinationKind = keyof DestinationKindNames & string;

export interface DestinationsTable {
  id: string;
  account_id: string;
  kind: DestinationKind;
  /** What people see: the webhook URL, the Klaviyo account's key hint, the shop. */
  target: string;
  /** Comma-separated DestinationEvent names it receives. */
  events: string;
  /** JSON: the kind's own settings (the URL, the tag). */
  settings: string;
  /** Sealed (lib/sealer.ts): the signing secret or API key; null for a kind without one. */
  secret: string | null;
  secret_hint: string | null;
  created_at: number;
  /** When a 410 Gone from the receiver stopped deliveries; null while enabled. */
  disabled_at: Generated<number | null>;
  /** The receiver's answer that disabled it ("410 gone"); null while enabled. */
  disabled_reason: Generated<string | null>;
}

export interface Database {
  forgotten_orders: ForgottenOrdersTable;
  store_events: StoreEventsTable;
  destinations: DestinationsTable;
  destination_deliveries: DestinationDeliveriesTable;
  destination_attempts: DestinationAttemptsTable;
  store_connections: StoreConnectionsTable;
  accounts: AccountsTable;
  users: UsersTable;
  stores: StoresTable;
  api_keys: ApiKeysTable;
  customers: CustomersTable;
  orders: OrdersTable;
  usage_charges: UsageChargesTable;
  provider_spend: ProviderSpendTable;
  budget_months: BudgetMonthsTable;
  jobs: JobsTable;
  enrichments: EnrichmentsTable;
  rejudge_cursors: RejudgeCursorsTable;
  provider_results: ProviderResultsTable;
  zip_incomes: ZipIncomesTable;
  exchange_rates: ExchangeRatesTable;
  shared_limits: SharedLimitsTable;
  alerts: AlertsTable;
  vip_verdicts: VipVerdictsTable;
  channel_settings: ChannelSettingsTable;
  account_settings: AccountSettingsTable;
  alert_attempts: AlertAttemptsTable;
  sessions: SessionsTable;
  auth_attempts: AuthAttemptsTable;
  throttle_locks: ThrottleLocksTable;
  signup_requests: SignupRequestsTable;
  alert_email_confirmations: AlertEmailConfirmationsTable;
  audit_events: AuditEventsTable;
  user_invitations: UserInvitationsTable;
  password_resets: PasswordResetsTable;
  known_devices: KnownDevicesTable;
  readiness_probe: ReadinessProbeTable;
  alert_channel_outages: AlertChannelOutagesTable;
}
