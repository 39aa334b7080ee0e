/**
 * The real application with its whole pipeline, for browser tests that follow an order from
 * the API to the merchant's screen: the job worker in the app's process, wire-format fakes of
 * the four enrichment providers, a fake Slack webhook and a real SMTP server. Nothing is
 * simulated inside Velvet: only what is outside it is a fake.
 */
import type { Page } from "playwright-core";
import { loadConfig } from "../../src/config.js";
import { createAlertDelivery } from "../../src/features/alerts/alert-deps.js";
import { type FakeChatServer, startChatServer } from "../fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../fakes/providers/index.js";
import type { Engine } from "../support/databases.js";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

export interface PipelineApp {
  app: TestApp;
  providers: FakeProviders;
  chat: FakeChatServer;
  smtp: TestSmtpServer;
  close(): Promise<void>;
}

export async function startPipelineApp(engine: Engine): Promise<PipelineApp> {
  const [providers, chat, smtp] = await Promise.all([
    startFakeProviders(),
    startChatServer(),
    startSmtpServer(),
  ]);
  const env = {
    ...providers.env,
    // Gravatar's anonymous quota (16/min) would pace the test, not the product.
    GRAVATAR_RATE_LIMIT_PER_MIN: "6000",
    SMTP_URL: smtp.url,
    // The fake webhook is on loopback, which the SSRF guard refuses otherwise.
    WEBHOOKS_ALLOW_PRIVATE: "true",
  };
  // Unpaced, so the test message and the VIP alert to the same webhook need not wait a second.
  const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
  const app = await startTestApp(engine, { worker: true, env, alerts });
  return {
    app,
    providers,
    chat,
    smtp,
    close: async () => {
      await app.close();
      await Promise.all([providers.close(), chat.close(), smtp.close()]);
    },
  };
}

/**
 * Reloads the page, as a merchant waiting for results would, until `ready` holds; fails after
 * `timeoutMs` with `what` in the message.
 */
export async function reloadUntil(
  page: Page,
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await page.reload();
  }
}
