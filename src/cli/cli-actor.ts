/** The audit trail's actor for a `velvet` command: the operating-system user who ran it. */
import os from "node:os";
import { type AuditActor, cliActor } from "../features/audit/audit-actor.js";

export function commandActor(): AuditActor {
  try {
    return cliActor(os.userInfo().username);
  } catch {
    // No passwd entry for this uid (some containers): the uid still says who it was.
    return cliActor(`uid ${process.getuid?.() ?? "unknown"}`);
  }
}
