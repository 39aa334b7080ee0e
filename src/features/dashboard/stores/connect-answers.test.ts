/**
 * Replay of the second review's finding on both engines: the store-connect form told how
 * internal names resolve ("refused to connect: vm resolves to 127.0.0.1", "getaddrinfo
 * ENOTFOUND …"). It now says only "not a public address" or "could not be reached", and the
 * particulars go to the log; a store on another port than 443 is refused before any call. None
 * of these answers sends the consumer secret back.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { cliActor } from "../../audit/audit-actor.js";
import { connectStore } from "../../store-sync/connect-store.js";
import { createPlatformHttp } from "../../store-sync/platform-http.js";

const STORES_PATH = "/settings/integrations/stores";
const STRICT_ENV = {
  ...STORE_SYNC_ENV,
  WEBHOOKS_ALLOW_PRIVATE: "false",
  PROVIDER_TIMEOUT_MS: "3000",
};
const LEAKS = /127\.0\.0\.1|::1|resolves|getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`store-connect answers on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine, { env: STRICT_ENV });
    });
    afterAll(async () => {
      await app?.close();
    });

    async function connectWoo(url: string) {
      const { browser } = await signInNewAccount(app);
      const res = await browser.submit(STORES_PATH, `${STORES_PATH}/woocommerce`, {
        url,
        key: "ck_0123456789abcdef",
        secret: "cs_0123456789abcdef",
        "woocommerce-backfill": "30",
      });
      const html = await res.text();
      // Whatever the answer, the secret is not in it; the address and the key are kept.
      expect(html).not.toContain("cs_0123456789abcdef");
      expect(html).toContain('value="ck_0123456789abcdef"');
      expect(html).toContain("Enter the consumer secret again");
      return { status: res.status, html };
    }

    it("says only 'not a public address' for a name that resolves inside", async () => {
      const { status, html } = await connectWoo("https://localhost/shop");
      expect(status).toBe(400);
      expect(html).toContain("not a public address");
      expect(html).not.toMatch(LEAKS);
    });

    it("says only 'could not be reached' for a name that does not resolve", async () => {
      const { status, html } = await connectWoo("https://velvet-no-such-store.invalid");
      expect(status).toBe(400);
      expect(html).toContain("could not be reached");
      expect(html).not.toMatch(LEAKS);
    });

    it("refuses a store address on another port than 443", async () => {
      const { status, html } = await connectWoo("https://shop.example.com:8443");
      expect(status).toBe(400);
      expect(html).toContain("standard https port (443)");
    });

    it("keeps the particulars for the log", async () => {
      const lines: string[] = [];
      const log = pino(
        { level: "info" },
        new Writable({
          write(chunk, _enc, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      );
      const { accountId } = await app.createAccount();
      const http = createPlatformHttp({ allowPrivate: false, timeoutMs: 3000 });
      try {
        const attempt = connectStore({ ...app.deps, log }, http, {
          accountId,
          shop: "https://localhost/shop",
          credentials: { platform: "woocommerce", key: "ck_x", secret: "cs_x" },
          actor: cliActor("test"),
        });
        await expect(attempt).rejects.toThrow(
          /^The WooCommerce store's address is not a public address\.$/,
        );
      } finally {
        await http.close();
      }
      expect(lines.join("")).toMatch(/localhost resolves to/);
    });
  });
}
