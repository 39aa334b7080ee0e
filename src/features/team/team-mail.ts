/**
 * Mails a team link (invitation, password reset) through the process's SMTP sender. Without
 * SMTP_URL nothing is sent and the caller says so (an invitation link is always shown once to
 * copy; a reset then needs the operator's `velvet user reset-password`).
 */
import { buildPlainEmail, type PlainEmail } from "../alerts/plain-email.js";
import type { TeamDeps } from "./team-deps.js";

export async function sendTeamMail(
  deps: Pick<TeamDeps, "alerts" | "config" | "log">,
  mail: Omit<PlainEmail, "from">,
): Promise<boolean> {
  if (!deps.alerts.emailEnabled) return false;
  const sent = await deps.alerts.sendMail(
    buildPlainEmail({ ...mail, from: deps.config.alerts.from }),
  );
  if (sent.outcome === "delivered") return true;
  // Neither the recipient nor the subject (a store's name) goes to the log: only what failed.
  deps.log.error({ error: sent.error }, "team e-mail could not be sent");
  return false;
}
