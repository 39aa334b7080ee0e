/** The closed list of what the audit trail records, with how people read each. */
export const AUDIT_ACTIONS = {
  "account.created": "Account created",
  "user.signed_in": "Signed in",
  "user.sign_in_failed": "Sign-in failed (wrong password)",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "api_key.regenerated": "API key regenerated",
  "alert_settings.changed": "Alert settings changed",
  "customer.exported": "Customer data exported",
  "customer.erased": "Customer data erased",
  "account.closed": "Account closed",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}
