/**
 * Table types for Kysely. Both engines store the same shapes: ids are UUID text, instants are
 * integer milliseconds since the epoch (UTC), flags are 0/1 integers, money is an exact decimal
 * string, and structured values are JSON text. Keeping one representation means one set of
 * queries and no per-engine conversions.
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export type EnrichmentStatus = "pending" | "enriched" | "failed";

export interface AccountsTable {
  id: string;
  name: string;
  vip_threshold: Generated<number>;
  /** Requests a minute per API key; null: the process default; 0: unlimited. */
  api_rate_limit_per_minute: number | null;
  /** The monthly budget for paid provider lookups, a decimal string in USD; null: none. */
  monthly_budget_usd: Generated<string | null>;
  created_at: number;
  /** Set when the owner closed the account (its customers erased, keys revoked). */
  closed_at: Generated<number | null>;
  /** Named score floors, JSON `[{name, floor}]` highest first (features/customers/tiers.ts). */
  tiers: Generated<string>;
}

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  email_normalized: string;
  password_hash: string | null;
  created_at: number;
  /** owner, admin or member (features/team/roles.ts); read on every request. */
  role: Generated<UserRole>;
  last_sign_in_at: Generated<number | null>;
}

export type UserRole = "owner" | "admin" | "member";

export interface StoresTable {
  id: string;
  account_id: string;
  name: string;
  created_at: number;
  /**
   * 1: the account's sample store (features/demo), holding only generated sample data, with no
   * API key and no connection; 0: the account's real store. At most one of each per account.
   */
  sample: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  store_id: string;
  key_hash: string;
  last4: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface CustomersTable {
  id: string;
  store_id: string;
  email: string;
  email_normalized: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zipcode: string | null;
  address_country: string | null;
  enrichment_status: EnrichmentStatus;
  /** The Shopify customer's GID from the latest order synced from Shopify; null otherwise. */
  shopify_customer_id: Generated<string | null>;
  created_at: number;
  updated_at: number;
  /**
   * 1: generated sample data (velvet demo), never billed or alerted, always in the account's
   * sample store; 0: a real customer, always in the real store.
   */
  sample: Generated<number>;
}

export interface OrdersTable {
  id: string;
  store_id: string;
  customer_id: string;
  external_order_id: string | null;
  order_number: string | null;
  total: string | null;
  currency: string;
  created_at: number;
  /** The platform's status (`paid`, `cancelled` …); null when the source said none (API, import). */
  status: Generated<string | null>;
  /**
   * 1: a purchase; 0: cancelled, refunded in full, voided or binned (store-sync/order-status.ts):
   * shown with the customer's orders, left out of every count and score of purchases.
   */
  counts: Generated<number>;
  /** The platform's update time (epoch ms) of the status held: an older update never wins. */
  status_at: Generated<number | null>;
}

export interface UsageChargesTable {
  id: string;
  account_id: string;
  store_id: string;
  /** Null once the customer was erased: billing keeps amount, price and month, not the person. */
  customer_id: string | null;
  unit_price_usd: string;
  created_at: number;
}

/** Per account, month (`YYYY-MM`, UTC) and provider: the lookups it billed and their cost. */
export interface ProviderSpendTable {
  account_id: string;
  month: string;
  provider: string;
  /** One of the provider's month rows an enrichment adds to (0–15); reads sum them. */
  shard: Generated<number>;
  lookups: number;
  amount_micros: number;
  updated_at: number;
}

/** Per account and month: what paid lookups in flight reserved, and the budget notices sent. */
export interface BudgetMonthsTable {
  account_id: string;
  month: string;
  reserved_micros: Generated<number>;
  notified_80: Generated<number>;
  notified_100: Generated<number>;
}

export interface JobsTable {
  id: string;
  task: string;
  payload: string;
  job_key: string | null;
  run_at: number;
  /** 0 live, 1 backfill: every due live job is claimed before any backfill job (0011). */
  priority: Generated<number>;
  /** Whose turn the job waits for: an account's id, or '' for the shared queue (0029). */
  queue_key: Generated<string>;
  /** Its place among due jobs of its priority while it waits for its first turn, else null. */
  fair_tag: number | null;
  attempts: Generated<number>;
  max_attempts: number;
  last_error: string | null;
  locked_by: string | null;
  locked_until: number | null;
  /** The X-Request-Id of the request (or job) that enqueued it, for following it in the logs. */
  request_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface EnrichmentsTable {
  customer_id: string;
  score: number | null;
  vip: number | null;
  /** The threshold the VIP decision was made against. */
  threshold: number | null;
  /** JSON array of {source, signal, value, points}. */
  signals: Generated<string>;
  /** JSON: the normalised profile merged from all providers. */
  profile: Generated<string>;
  attempts: Generated<number>;
  last_error: string | null;
  started_at: number | null;
  enriched_at: number | null;
  updated_at: number;
  /** Non-zero while the monthly budget stopped this customer's paid lookups (2: imported history). */
  paid_lookups_deferred: Generated<number>;
  /** When the customer became the VIP they are now (enrichment or re-judge); null: not a VIP. */
  vip_since: Generated<number | null>;
  /** The last time a re-judge changed the VIP decision (rejudge/), and why in words. */
  vip_changed_at: Generated<number | null>;
  vip_change_reason: Generated<string | null>;
  /** The last re-judge that stored a score; null: the score is the enrichment's. */
  rejudged_at: Generated<number | null>;
}

/** How far the periodic re-judge has read the orders received (by time-ordered order id). */
export interface RejudgeCursorsTable {
  name: string;
  last_order_id: string;
  updated_at: number;
}

export type ProviderOutcome = "matched" | "not_found" | "transient" | "permanent";

export interface ProviderResultsTable {
  id: string;
  customer_id: string;
  provider: string;
  outcome: ProviderOutcome;
  http_status: number | null;
  /** The provider's answer as received (JSON text), kept for audit. */
  raw: string | null;
  /** JSON: the normalised ProfileFragment of a match. */
  profile: string | null;
  error: string | null;
  fetched_at: number;
  /** When retention removed `raw` (PROVIDER_DATA_RETENTION_DAYS); the profile stays. */
  raw_cleared_at: Generated<number | null>;
  /** How sure the provider was of a match, as it says it ("likelihood 9/10"); null otherwise. */
  confidence: Generated<string | null>;
}

export interface ZipIncomesTable {
  zcta: string;
  median_household_income: number;
  margin_of_error: number | null;
}

/** The latest day of euro reference rates, one row per currency (migration 0027). */
export interface ExchangeRatesTable {
  currency: string;
  /** Units of the currency for one euro, as published (a decimal string). */
  per_eur: string;
  /** The day the rates are for, YYYY-MM-DD. */
  rate_date: string;
  /** Who published them: "ECB". */
  source: string;
  stored_at: number;
}

/** Budgets shared by every process: provider and webhook slots, per-key windows (migration 0028). */
export interface SharedLimitsTable {
  name: string;
  next_at: Generated<number>;
  granted_at: Generated<number>;
  window_ends_at: Generated<number>;
  used: Generated<number>;
  granted: Generated<number>;
  expires_at: number;
}

/**
 * The alert channels' names, as `alerts.channel` and the outage records store them: each channel
 * adds its own in its folder (features/alerts/channels/<name>/<name>-channel.ts) by declaration
 * merging, `declare module "…/db/schema.js" { interface AlertChannelNames { <name>: true } }`,
 * so a new channel needs no edit here; the registry checks its list against these names.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each channel (declaration merging)
export interface AlertChannelNames {}
export type AlertChannel = keyof AlertChannelNames & string;
/**
 * `waiting`: an e-mail alert that no server able to send mail (SMTP_URL) has run yet; it keeps
 * its attempts and goes out when one does (deliver-email-alert.ts).
 */
export type AlertStatus = "pending" | "waiting" | "delivered" | "failed";

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

/**
 * One alert channel setting of an account that has a value (features/alerts/channels): `name`
 * is the setting's key in its channel's declaration; a secret's `value` is sealed (`v1:…`)
 * when the process that wrote it had STORE_TOKEN_KEY.
 */
export interface ChannelSettingsTable {
  account_id: string;
  channel: string;
  name: string;
  value: string;
}

/**
 * An account setting stored as data (features/accounts/settings/setting-rows.ts): one row per
 * account and setting written; no row: the setting's default.
 */
export interface AccountSettingsTable {
  account_id: string;
  /** The setting's key in ACCOUNT_SETTINGS. */
  key: string;
  /** The value as JSON text. */
  value: string;
  updated_at: number;
}

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

export type AlertAttemptOutcome = "delivered" | "retry" | "failed";

/** One row, upserted by GET /readyz's write probe. */
export interface ReadinessProbeTable {
  id: number;
  probed_at: number;
  ballast: string | null;
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

export interface AlertAttemptsTable {
  id: string;
  alert_id: string;
  attempted_at: number;
  outcome: AlertAttemptOutcome;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a stolen database does not yield live sessions. */
  id_hash: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: number;
  expires_at: number;
  /** Where and with what it signed in (Profile's session list); null for older sessions. */
  ip: Generated<string | null>;
  browser: Generated<string | null>;
  last_seen_at: Generated<number | null>;
}

/** A browser that signed in as the user (the device cookie's SHA-256): password-reset budget. */
export interface KnownDevicesTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** A pending invitation to join an account's team: single use, 7 days. */
export interface UserInvitationsTable {
  /** SHA-256 of the token in the link. */
  token_hash: string;
  account_id: string;
  email: string;
  email_normalized: string;
  role: UserRole;
  /** The inviter's user id (or "cli:<os user>"). */
  invited_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A link to choose a new password: single use, 1 hour. */
export interface PasswordResetsTable {
  /** SHA-256 of the token in the link. */
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** What is throttled: log-ins, sign-ups, confirmation mails for alert addresses, reset requests. */
export type AuthAction =
  | "login"
  | "signup"
  | "alert-email"
  | "invitation-email"
  | "password-reset"
  | "password-reset-device";
/** pending: reserved, the password is being checked; failed/succeeded: settled. */
export type AuthAttemptState = "pending" | "failed" | "succeeded";

export interface AuthAttemptsTable {
  id: string;
  action: AuthAction;
  /** The normalised e-mail the attempt named (whether or not an account has it). */
  email: string;
  /** The client address, as Fastify determined it under TRUST_PROXY. */
  ip: string;
  attempted_at: number;
  state: AuthAttemptState;
  /** 1 once a successful log-in forgave it: no longer counted against the e-mail. */
  email_forgiven: Generated<number>;
}

export interface ThrottleLocksTable {
  key: string;
  touched_at: number;
}

export interface SignupRequestsTable {
  /** SHA-256 of the token in the mailed link. */
  token_hash: string;
  email: string;
  store_name: string;
  password_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AlertEmailConfirmationsTable {
  account_id: string;
  email_normalized: string;
  email: string;
  /** SHA-256 of the token in the mailed link. */
  token_hash: string;
  expires_at: number;
  sent_at: number;
  created_at: number;
}

export type AuditActorKind = "user" | "cli" | "system";

/** Append-only (the database refuses UPDATE and DELETE): who did what, and when. */
export interface AuditEventsTable {
  id: string;
  account_id: string;
  occurred_at: number;
  actor_kind: AuditActorKind;
  /** The dashboard user's e-mail, the OS user of a CLI command, or the system task's name. */
  actor: string;
  action: string;
  /** What it was done to, by id only (a key id, a customer id): never a person's e-mail. */
  subject: string | null;
  /** JSON object with the particulars (which settings changed, how many rows went). */
  details: string | null;
}

export type StorePlatform = "shopify" | "woocommerce";
export type StoreConnectionState = "active" | "paused" | "broken";

export interface StoreConnectionsTable {
  id: string;
  account_id: string;
  store_id: string;
  platform: StorePlatform;
  /** Shopify: the shop's domain (name.myshopify.com); WooCommerce: the site's URL. */
  shop: string;
  /** AES-256-GCM ciphertext of the credentials (features/store-sync/credentials.ts). */
  credentials: string;
  /** The credentials' last 4 characters: all that is ever shown. */
  credentials_hint: string;
  state: StoreConnectionState;
  /** JSON: where the next sync starts (per platform). */
  cursor: string;
  /** Orders created before this are history: no alert, backfill priority. */
  live_after: number;
  last_sync_at: number | null;
  orders_synced: number;
  orders_skipped: number;
  /** JSON `{reason: count}` of the orders not taken. */
  skip_reasons: Generated<string>;
  /** Consecutive failed syncs (backoff); 0 after a good one. */
  failures: number;
  last_error: string | null;
  /** Webhook health (features/store-webhooks; migration 0024 says each state). */
  webhooks: Generated<StoreWebhooksState>;
  webhook_note: string | null;
  /** JSON array of the platform's ids of Velvet's subscriptions. */
  webhook_ids: Generated<string>;
  webhook_last_at: number | null;
  webhook_checked_at: number | null;
  created_at: number;
  updated_at: number;
}

export type StoreWebhooksState = "off" | "active" | "failing";

/** A verified delivery from a connected store (features/store-webhooks). */
export interface StoreEventsTable {
  id: string;
  connection_id: string;
  /** The platform's id of the delivery (X-Shopify-Webhook-Id, X-WC-Webhook-Delivery-ID). */
  delivery_id: string;
  topic: string;
  /** The raw payload; null once processed. */
  body: string | null;
  received_at: number;
  processed_at: number | null;
  /** What became of it: `taken`, `skipped: <reason>`, `ignored: <why>`. */
  outcome: string | null;
}

/** A keyed hash of an order id that belonged to a forgotten customer (features/orders). */
export interface ForgottenOrdersTable {
  store_id: string;
  order_hash: string;
  created_at: number;
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
/**
 * `customer.not_vip` is not subscribed to on its own: it goes wherever `customer.vip` goes
 * (destinations/enqueue-deliveries.ts), so a destination told of a VIP is told when they stop.
 */
export type DestinationEvent =
  | "customer.enriched"
  | "customer.vip"
  | "customer.not_vip"
  | "customer.forgotten";
export type DestinationDeliveryStatus = "pending" | "delivered" | "failed";

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

export interface DestinationDeliveriesTable {
  /** Also the webhook-id: the same on every attempt, so a receiver can drop duplicates. */
  id: string;
  destination_id: string;
  account_id: string;
  /** Null once the person is forgotten (a customer.forgotten delivery is never linked). */
  customer_id: string | null;
  event: DestinationEvent;
  /** Unique per destination: `<event>:<customer id>`. */
  event_key: string;
  historical: Generated<number>;
  /** The exact JSON sent; null once a customer.forgotten delivery has finished. */
  body: string | null;
  status: DestinationDeliveryStatus;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface DestinationAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: number;
  outcome: AlertAttemptOutcome;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
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

export type Customer = Selectable<CustomersTable>;
export type NewCustomer = Insertable<CustomersTable>;
export type Order = Selectable<OrdersTable>;
export type Job = Selectable<JobsTable>;
export type JobUpdate = Updateable<JobsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
