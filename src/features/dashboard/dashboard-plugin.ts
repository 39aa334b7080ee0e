/**
 * The merchant dashboard: server-rendered pages at `/`, registered as one encapsulated Fastify
 * context so that its form-body parser, session hook and HTML error pages never touch the
 * public API (which keeps answering JSON, and 415 to anything but JSON).
 */

import type { FastifyError, FastifyInstance } from "fastify";
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../../db/errors.js";
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { AlertsDeps } from "../alerts/alert-deps.js";
import type { DestinationsDeps } from "../destinations/destination-driver.js";
import type { PrivacyDeps } from "../privacy/privacy-registry.js";
import { registerCloseAccountRoutes } from "./account/close-account-routes.js";
import { registerAlertEmailConfirmRoutes } from "./alert-settings/alert-email-confirm-routes.js";
import { registerAlertSettingsRoutes } from "./alert-settings/alert-settings-routes.js";
import type { SendChat } from "./alert-settings/test-message.js";
import { registerAlertLogRoutes } from "./alerts-log/alert-log-routes.js";
import { registerApiAccessRoutes } from "./api-access/api-access-routes.js";
import { registerAssetRoutes } from "./assets/asset-routes.js";
import { registerAuditLogRoutes } from "./audit-log/audit-log-routes.js";
import { registerAuthRoutes } from "./auth/auth-routes.js";
import { registerSignUpRoutes } from "./auth/sign-up-routes.js";
import { registerBillingRoutes } from "./billing/billing-routes.js";
import { registerCustomerRoutes } from "./customers/customer-routes.js";
import { registerDestinationsRoutes } from "./destinations/destinations-routes.js";
import { sendErrorPage } from "./html/error-pages.js";
import { registerCookies } from "./http/cookies.js";
import { acceptFormBodies, FORM_BODY_LIMIT_BYTES } from "./http/form-body.js";
import { registerNoticeRoutes } from "./notices/folded-notices.js";
import { registerOverviewRoutes } from "./overview/overview-routes.js";
import { registerCustomerPrivacyRoutes } from "./privacy/customer-privacy-routes.js";
import { registerProfileRoutes } from "./profile/profile-routes.js";
import { sessionHook } from "./session/guards.js";
import { roleGuard, visitorsByDefault } from "./session/role-guard.js";
import { registerStoresRoutes } from "./stores/stores-routes.js";
import { registerSystemRoutes } from "./system/system-routes.js";
import { registerPasswordResetRoutes } from "./team/password-reset-routes.js";
import { registerTeamRoutes } from "./team/team-routes.js";
import { registerVerdictLinkRoutes } from "./verdicts/verdict-link-routes.js";
import { registerVerdictRoutes } from "./verdicts/verdict-routes.js";

export interface DashboardOptions {
  /**
   * Posts Settings → Alerts' test message. Default: the process's alert sender
   * (`deps.alerts.sendChat`: SSRF-guarded, and paced together with real alerts).
   */
  sendChat?: SendChat;
  /**
   * The worker's tasks, for Settings → System's Retry (their `onRetry` puts the enrichment or
   * alert back to pending). Without them a retry still revives the job row.
   */
  tasks?: ReadonlyArray<TaskDefinition<unknown>>;
}

export function registerDashboard(
  app: FastifyInstance,
  deps: Deps & AlertsDeps & PrivacyDeps & DestinationsDeps,
  options: DashboardOptions = {},
): void {
  app.register(async (dashboard) => {
    const sendChat = options.sendChat ?? deps.alerts.sendChat;
    registerCookies(dashboard);
    acceptFormBodies(dashboard);
    dashboard.setErrorHandler((error: FastifyError, request, reply) => {
      const session = request.dashboardSession;
      if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
        return sendErrorPage(
          reply,
          415,
          "Forms here are sent as application/x-www-form-urlencoded.",
          session,
        );
      }
      if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
        return sendErrorPage(
          reply,
          413,
          `A form may hold at most ${FORM_BODY_LIMIT_BYTES / 1024} KiB.`,
          session,
        );
      }
      if (isDatabaseUnavailable(error)) {
        request.log.debug({ err: error }, "database unavailable");
        reply.header("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        return sendErrorPage(
          reply,
          503,
          "Velvet cannot reach its database just now. Please try again in a moment.",
          session,
        );
      }
      request.log.error({ err: error }, "dashboard error");
      return sendErrorPage(
        reply,
        500,
        "The page could not be shown. Please try again in a moment.",
        session,
      );
    });
    registerAssetRoutes(dashboard);

    await dashboard.register(async (pages) => {
      pages.addHook("onRequest", sessionHook(deps));
      pages.addHook("preHandler", roleGuard);
      // Log-in, sign-up and the pages behind mailed links: public unless a route says otherwise.
      await pages.register(async (visitors) => {
        visitors.addHook("onRoute", visitorsByDefault);
        registerAuthRoutes(visitors, deps);
        registerSignUpRoutes(visitors, deps);
        registerAlertEmailConfirmRoutes(visitors, deps);
        registerVerdictLinkRoutes(visitors, deps);
        registerPasswordResetRoutes(visitors, deps);
      });
      registerOverviewRoutes(pages, deps);
      registerCustomerRoutes(pages, deps);
      registerCustomerPrivacyRoutes(pages, deps);
      registerVerdictRoutes(pages, deps);
      registerAlertLogRoutes(pages, deps);
      registerApiAccessRoutes(pages, deps);
      registerStoresRoutes(pages, deps);
      registerDestinationsRoutes(pages, deps);
      registerAlertSettingsRoutes(pages, deps, sendChat);
      registerBillingRoutes(pages, deps);
      registerAuditLogRoutes(pages, deps);
      registerCloseAccountRoutes(pages, deps);
      registerSystemRoutes(pages, deps, options.tasks ?? []);
      registerTeamRoutes(pages, deps);
      registerProfileRoutes(pages, deps);
      registerNoticeRoutes(pages, deps);
    });
  });
}
