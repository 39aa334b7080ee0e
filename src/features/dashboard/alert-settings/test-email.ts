/**
 * "Send a test e-mail" to the confirmed alert addresses, through the same SMTP sender real alerts
 * use, so a merchant finds a wrong address or a mail server that refuses us before a VIP shops.
 */
import { randomUUID } from "node:crypto";
import { escapeHtml } from "../../../lib/escape-html.js";
import type { AlertDelivery } from "../../alerts/alert-deps.js";
import { subjectText } from "../../alerts/subject-text.js";
import type { Notice } from "../html/components.js";

export interface TestEmailInput {
  to: string[];
  from: string;
  storeName: string;
  publicBaseUrl: string;
}

export const NO_SMTP_NOTICE =
  "E-mail sending is not set up on this server (SMTP_URL), so no test e-mail was sent. Ask your Velvet administrator. VIP alerts found meanwhile are kept, and sent once it is set up (they wait up to 7 days).";

export async function sendTestEmail(
  delivery: Pick<AlertDelivery, "sendMail" | "emailEnabled">,
  input: TestEmailInput,
): Promise<Notice> {
  if (!delivery.emailEnabled) return { kind: "error", text: NO_SMTP_NOTICE };
  if (input.to.length === 0)
    return {
      kind: "error",
      text: "Save an alert e-mail address and confirm it from the link we sent, then send a test e-mail.",
    };
  const settingsUrl = `${input.publicBaseUrl}/settings/alerts`;
  const result = await delivery.sendMail({
    from: input.from,
    to: input.to,
    subject: `Velvet test e-mail for ${subjectText(input.storeName, 60) || "your store"}`,
    text: `Velvet is connected: VIP alerts for ${input.storeName} will arrive at this address.\n\nThis is a test e-mail, sent from Velvet's alert settings: ${settingsUrl}\n`,
    html: `<p>Velvet is connected: VIP alerts for <strong>${escapeHtml(input.storeName)}</strong> will arrive at this address.</p><p style="color:#555">This is a test e-mail, sent from <a href="${escapeHtml(settingsUrl)}">Velvet's alert settings</a>.</p>`,
    messageId: `<test-${randomUUID()}@velvet>`,
  });
  const to = input.to.join(", ");
  if (result.outcome === "delivered") {
    return result.error === null
      ? {
          kind: "success",
          text: `Test e-mail sent to ${to}. Check the inbox (and the spam folder).`,
        }
      : { kind: "info", text: `Test e-mail sent, but the mail server ${result.error}.` };
  }
  const code = "statusCode" in result && result.statusCode ? ` (SMTP ${result.statusCode})` : "";
  return { kind: "error", text: `The test e-mail could not be sent${code}: ${result.error}` };
}
