/**
 * Who did something, as the audit trail names them: a signed-in dashboard user (by e-mail), a
 * `velvet` command (by the operating-system user who ran it) or the system itself (a periodic
 * task, by name).
 */
import type { AuditActorKind } from "../../db/schema.js";

export interface AuditActor {
  kind: AuditActorKind;
  name: string;
}

export function userActor(email: string): AuditActor {
  return { kind: "user", name: email };
}

export function cliActor(osUser: string): AuditActor {
  return { kind: "cli", name: osUser };
}

/**
 * Someone at the dashboard who is not signed in (a "Forgot password?" request): named by their
 * address, never by the e-mail they typed, which may not be theirs.
 */
export function visitorActor(ip: string): AuditActor {
  return { kind: "user", name: `visitor from ${ip} (not signed in)` };
}

export function systemActor(task: string): AuditActor {
  return { kind: "system", name: task };
}
