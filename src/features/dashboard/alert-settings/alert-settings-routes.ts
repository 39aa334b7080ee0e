/** Settings → Alerts: show, save, remove the webhook, send a test message. */

import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import { changeAlertSettings } from "../../accounts/change-alert-settings.js";
import { readAccountSettings } from "../../accounts/settings/read-account-settings.js";
import type { AlertsDeps } from "../../alerts/alert-deps.js";
import { mailConfirmation, renewConfirmation } from "../../alerts/alert-email-confirmation.js";
import { alertEmailStates } from "../../alerts/alert-email-states.js";
import { splitAlertEmails } from "../../alerts/alert-settings.js";
import { readChannelValues } from "../../alerts/channels/channel-registry.js";
import { maskWebhookUrl } from "../../alerts/webhook-url.js";
import { userActor } from "../../audit/audit-actor.js";
import { configuredProviderNames } from "../../enrichment/providers/create-providers.js";
import { getPrecision } from "../../verdicts/precision.js";
import { getPrecisionHistory } from "../../verdicts/precision-history.js";
import type { Notice } from "../html/components.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { foldedNotices } from "../notices/folded-notices.js";
import { noProvidersOnPage } from "../notices/operator-notice.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { savedSettingTexts, submittedSettingTexts } from "../settings/setting-fields.js";
import {
  type AlertSettingsField,
  type AlertSettingsFormValues,
  readAlertSettingsForm,
} from "./alert-settings-form.js";
import { alertSettingsView } from "./alert-settings-view.js";
import { saveAlertSettings } from "./save-alert-settings.js";
import { getScoreDistribution } from "./score-distribution.js";
import { sendTestEmail } from "./test-email.js";
import { type SendChat, sendTestMessage } from "./test-message.js";

const PATH = "/settings/alerts";

/** The declared channel fields the form carried (channel-panels.ts), by field name. */
function channelFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!(body instanceof URLSearchParams)) return fields;
  for (const [name, value] of body) if (name.startsWith("channel.")) fields[name] = value;
  return fields;
}

const NOTICES: Record<string, Notice> = {
  saved: { kind: "success", text: "Alert settings saved." },
  "webhook-removed": { kind: "success", text: "The chat webhook is removed: chat alerts are off." },
  "no-webhook": { kind: "error", text: "Save a webhook URL first, then send a test message." },
  "sent-again": { kind: "success", text: "A new confirmation link is on its way." },
  "not-sent": {
    kind: "error",
    text: "The confirmation link could not be sent just now. Try again later.",
  },
};

function savedNotice(mailed: string[], notMailed: string[]): string {
  const parts = ["saved"];
  if (mailed.length > 0) parts.push("mailed");
  if (notMailed.length > 0) parts.push("not-mailed");
  return parts.join(",");
}

function noticeFor(key: string): Notice | null {
  const [first, ...rest] = key.split(",");
  const base = NOTICES[first ?? ""];
  if (!base) return null;
  if (first !== "saved" || rest.length === 0) return base;
  const extra = [
    rest.includes("mailed")
      ? "We sent a link to each new e-mail address: alerts go there once it is confirmed."
      : "",
    rest.includes("not-mailed")
      ? "Some confirmation links could not be sent: use Send again below."
      : "",
  ].filter(Boolean);
  return { kind: base.kind, text: `${base.text} ${extra.join(" ")}` };
}

async function loadSettings(deps: Deps & AlertsDeps, accountId: string) {
  const settings = await readAccountSettings(deps.db.kysely, accountId);
  if (!settings) throw new Error(`account ${accountId} does not exist`);
  const channels = await readChannelValues(
    deps.db.kysely,
    accountId,
    deps.config.storeSync.tokenKey,
  );
  return {
    settings,
    channels,
    slack_webhook_url: channels.slack_webhook_url ?? null,
    alert_emails: channels.alert_emails ?? null,
  };
}

async function render(
  deps: Deps & AlertsDeps,
  reply: FastifyReply,
  session: DashboardSession,
  opts: {
    notice?: Notice | null;
    values?: AlertSettingsFormValues;
    errors?: Partial<Record<AlertSettingsField, string>>;
  },
  status = 200,
) {
  const [saved, distribution, precision] = await Promise.all([
    loadSettings(deps, session.accountId),
    getScoreDistribution(deps.db.kysely, session.accountId),
    getPrecision(deps.db.kysely, session.accountId, deps.clock.now()),
  ]);
  const [precisionHistory, emails] = await Promise.all([
    getPrecisionHistory(
      deps.db.kysely,
      session.accountId,
      saved.settings.vipThreshold,
      deps.clock.now(),
    ),
    alertEmailStates(deps.db.kysely, session.accountId, splitAlertEmails(saved.alert_emails)),
  ]);
  const savedTexts = savedSettingTexts("alerts", saved.settings);
  const values = opts.values
    ? { ...opts.values, settings: { ...savedTexts, ...opts.values.settings } }
    : {
        settings: savedTexts,
        webhook: "",
        emails: splitAlertEmails(saved.alert_emails).join("\n"),
      };
  return sendPage(
    reply,
    alertSettingsView({
      session: { ...session, vipThreshold: saved.settings.vipThreshold },
      values,
      errors: opts.errors ?? {},
      maskedWebhook:
        saved.slack_webhook_url === null ? null : maskWebhookUrl(saved.slack_webhook_url),
      channelValues: saved.channels,
      emailEnabled: deps.alerts.emailEnabled,
      savedEmails: emails.confirmed,
      awaiting: emails.awaiting,
      distribution,
      precision,
      precisionHistory,
      serverNotices: noProvidersOnPage(
        { ...session, vipThreshold: saved.settings.vipThreshold },
        configuredProviderNames(deps.config.enrichment),
        foldedNotices(reply.request),
        "/settings/alerts",
      ),
      notice: opts.notice ?? null,
    }),
    status,
  );
}

export function registerAlertSettingsRoutes(
  app: FastifyInstance,
  deps: Deps & AlertsDeps,
  sendChat: SendChat,
): void {
  const policy = { allowPrivate: deps.config.alerts.allowPrivateWebhooks };

  app.get<{ Querystring: { notice?: string } }>(PATH, pageOptions, async (request, reply) =>
    render(deps, reply, sessionOf(request), {
      notice: noticeFor(request.query.notice ?? ""),
    }),
  );

  app.post(PATH, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const values = {
      settings: submittedSettingTexts(request.body, "alerts", session.role),
      webhook: formField(request.body, "webhook"),
      emails: formField(request.body, "emails"),
      channels: channelFields(request.body),
    };
    const form = readAlertSettingsForm(values, policy);
    if (!form.ok) return render(deps, reply, session, { values, errors: form.errors }, 400);
    const actor = userActor(session.userEmail);
    const saved = await saveAlertSettings(deps, session, form.settings, actor);
    return seeOther(reply, `${PATH}?notice=${savedNotice(saved.mailed, saved.notMailed)}`);
  });

  app.post(`${PATH}/emails/resend`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const pending = await renewConfirmation(
      deps.db.kysely,
      session.accountId,
      formField(request.body, "email"),
      deps.clock.now(),
    );
    const sent =
      pending !== null &&
      (await mailConfirmation(deps, session.accountId, session.accountName, pending));
    return seeOther(reply, `${PATH}?notice=${sent ? "sent-again" : "not-sent"}`);
  });

  app.post(`${PATH}/webhook/remove`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    await changeAlertSettings(deps, {
      accountId: session.accountId,
      settings: { channels: { slack_webhook_url: null } },
      actor: userActor(session.userEmail),
    });
    return seeOther(reply, `${PATH}?notice=webhook-removed`);
  });

  // Answers with the page itself (no redirect): the outcome, good or bad, is shown right away.
  app.post(`${PATH}/test`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const saved = await loadSettings(deps, session.accountId);
    if (saved.slack_webhook_url === null) return seeOther(reply, `${PATH}?notice=no-webhook`);
    const notice = await sendTestMessage(sendChat, deps.log, {
      webhookUrl: saved.slack_webhook_url,
      storeName: session.accountName,
      publicBaseUrl: deps.config.publicBaseUrl,
      maskedUrl: maskWebhookUrl(saved.slack_webhook_url),
    });
    return render(deps, reply, session, { notice });
  });

  // Like the chat test: the outcome is the page itself.
  app.post(`${PATH}/test-email`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const saved = await loadSettings(deps, session.accountId);
    // Only confirmed addresses: a test e-mail is no way around the confirmation either.
    const { confirmed } = await alertEmailStates(
      deps.db.kysely,
      session.accountId,
      splitAlertEmails(saved.alert_emails),
    );
    const notice = await sendTestEmail(deps.alerts, {
      to: confirmed,
      from: deps.config.alerts.from,
      storeName: session.accountName,
      publicBaseUrl: deps.config.publicBaseUrl,
    });
    return render(deps, reply, session, { notice });
  });
}
