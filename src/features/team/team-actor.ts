/**
 * Who is changing the team, and with what authority: a signed-in user with their role, or an
 * operator at the `velvet` command (who may do anything but leave an account without an owner).
 */
import type { AuditActor } from "../audit/audit-actor.js";
import type { UserRole } from "./roles.js";

export interface TeamActor {
  audit: AuditActor;
  /** The user's role, or "operator" for the CLI. */
  authority: UserRole | "operator";
  /** The acting user's id (null for the CLI). */
  userId: string | null;
}
