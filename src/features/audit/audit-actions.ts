/** The closed list of what the audit trail records, with how people read each. */
export const AUDIT_ACTIONS = {
  "account.created": "Account created",
  "user.signed_in": "Signed in",
  "user.sign_in_failed": "Sign-in failed (wrong password)",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "api_key.regenerated": "API key regenerated",
  "alert_settings.changed": "Alert settings changed",
  "monthly_budget.changed": "Monthly lookup budget changed",
  "customer.exported": "Customer data exported",
  "customers.listed": "Customer list taken away (CSV or JSON)",
  "customer.erased": "Customer data erased",
  "customer.verdict_given": "VIP verdict given",
  "account.closed": "Account closed",
  "store.connected": "Store connected",
  "store.paused": "Store sync paused",
  "store.resumed": "Store sync resumed",
  "store.disconnected": "Store disconnected",
  "destination.added": "Destination added",
  "destination.removed": "Destination removed",
  "destination.disabled": "Destination disabled (its receiver answered 410 Gone)",
  "destination.enabled": "Destination enabled again",
  "team.invited": "Team member invited",
  "team.invitation_cancelled": "Invitation cancelled",
  "team.joined": "Invitation accepted",
  "team.added": "Team member added (command line)",
  "team.removed": "Team member removed",
  "team.role_changed": "Team member's role changed",
  "user.password_changed": "Password changed",
  "user.password_reset_requested": "Password reset asked for",
  "user.password_reset_link_issued": "Password link issued (command line)",
  "user.password_reset": "Password reset",
  "user.sessions_ended": "Sessions ended",
  "orders.imported": "Orders imported from a file",
  "sample_data.added": "Sample orders added",
  "sample_data.removed": "Sample orders removed",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

const DETAIL_LABELS: Record<string, string> = {
  threshold: "VIP threshold",
  chatWebhook: "chat webhook",
  alertEmails: "alert addresses",
  apiRateLimit: "API rate limit a minute (null: default)",
  tiers: "tiers",
  format: "format",
  filters: "filters",
  ip: "from",
  orders: "orders",
  providerAnswers: "provider answers",
  deliveryAttempts: "delivery records",
  enrichments: "enrichment",
  alerts: "alerts",
  jobs: "pending jobs",
  destinationDeliveries: "destination deliveries",
  destinationAttempts: "destination delivery records",
  kind: "kind",
  target: "target",
  chargesKept: "charges kept",
  keysRevoked: "keys revoked",
  storesDisconnected: "stores disconnected",
  sessionsEnded: "sessions ended",
  customers: "customers to erase",
  replacedBy: "replaced by key",
  platform: "platform",
  shop: "store",
  backfillDays: "backfill days",
  role: "role",
  email: "e-mail",
  invitationsEnded: "invitations ended",
  linkSent: "link e-mailed",
  file: "file",
  rows: "rows",
  newCustomers: "new customers",
  charges: "charges",
  amountUsd: "amount (USD)",
  skipped: "already there",
  errors: "bad rows",
  completed: "completed",
  sampleCustomers: "sample customers",
  verdict: "verdict",
  source: "given in",
  verdicts: "VIP verdicts",
  reason: "reason",
};

/** How people read one of an erasure's counts ("providerAnswers" → "provider answers"). */
export function erasedLabel(name: string): string {
  return DETAIL_LABELS[name] ?? name;
}

/**
 * An event's particulars as one readable line ("VIP threshold 70 → 80, from 127.0.0.1").
 * `labels` names details this list does not (an account setting's, by its declared label).
 */
export function auditDetailsText(
  details: Record<string, unknown> | null,
  labels: Readonly<Record<string, string>> = {},
): string {
  if (details === null) return "";
  return Object.entries(details)
    .map(([key, value]) => {
      const label = DETAIL_LABELS[key] ?? labels[key] ?? key;
      if (value !== null && typeof value === "object") {
        const v = value as Record<string, unknown>;
        if ("from" in v && "to" in v) return `${label} ${String(v.from)} → ${String(v.to)}`;
        if ("count" in v) return `${label}: ${String(v.count)}`;
        return `${label}: ${JSON.stringify(value)}`;
      }
      return `${label}: ${String(value)}`;
    })
    .join(", ");
}
