import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfToken,
  HttpBrowser,
  signUpBrowser,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../session/session-token.js";
import { LOGIN_WINDOW_MS } from "./login-throttle.js";

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2025, 5, 10, 12)) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

async function attempt(app: TestApp, email: string, password: string, ip?: string) {
  const browser = new HttpBrowser(app.url);
  const headers: Record<string, string> = ip ? { "x-forwarded-for": ip } : {};
  const { html } = await browser.page("/login");
  return browser.post("/login", { _csrf: csrfToken(html), email, password }, headers);
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `login throttling and session lifetime on ${engine.name}`,
    () => {
      const clock = manualClock();
      let app: TestApp;
      beforeAll(async () => {
        // TRUST_PROXY so each test can speak from its own client address (X-Forwarded-For).
        app = await startTestApp(engine, { clock, env: { TRUST_PROXY: "true" } });
      });
      afterAll(() => app?.close());

      it("allows 5 failures per e-mail in 15 minutes, then answers 429 even to the right password", async () => {
        const { email } = await signUpBrowser(app.url);
        const ip = "198.51.100.1";
        for (let i = 0; i < 5; i++)
          expect((await attempt(app, email, "wrong password", ip)).status).toBe(401);
        const blocked = await attempt(app, email, TEST_PASSWORD, ip);
        expect(blocked.status).toBe(429);
        expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(
          LOGIN_WINDOW_MS / 1000,
        );
        expect(await blocked.text()).toContain("Too many attempts");
        // Another address does not help: the e-mail itself is throttled.
        expect((await attempt(app, email, TEST_PASSWORD, "198.51.100.2")).status).toBe(429);
        clock.advance(LOGIN_WINDOW_MS + 1000);
        expect((await attempt(app, email, TEST_PASSWORD, ip)).status).toBe(303);
      });

      it("throttles an unknown e-mail the same way (no account enumeration through 429s)", async () => {
        const nobody = uniqueEmail("nobody");
        for (let i = 0; i < 5; i++)
          expect((await attempt(app, nobody, "x", "198.51.100.3")).status).toBe(401);
        expect((await attempt(app, nobody, "x", "198.51.100.3")).status).toBe(429);
        clock.advance(LOGIN_WINDOW_MS + 1000);
      });

      it("forgives an e-mail's failures after a successful login", async () => {
        const { email } = await signUpBrowser(app.url);
        for (let i = 0; i < 4; i++) await attempt(app, email, "wrong", "198.51.100.4");
        expect((await attempt(app, email, TEST_PASSWORD, "198.51.100.4")).status).toBe(303);
        for (let i = 0; i < 4; i++)
          expect((await attempt(app, email, "wrong", "198.51.100.4")).status).toBe(401);
        expect((await attempt(app, email, TEST_PASSWORD, "198.51.100.4")).status).toBe(303);
        clock.advance(LOGIN_WINDOW_MS + 1000);
      });

      it("caps one client address at 30 failures across e-mails", async () => {
        const ip = "203.0.113.9";
        for (let i = 0; i < 30; i++)
          expect((await attempt(app, uniqueEmail("spray"), "x", ip)).status).toBe(401);
        const { email } = await signUpBrowser(app.url);
        expect((await attempt(app, email, TEST_PASSWORD, ip)).status).toBe(429);
        expect((await attempt(app, email, TEST_PASSWORD, "203.0.113.10")).status).toBe(303);
        clock.advance(LOGIN_WINDOW_MS + 1000);
      });

      it("ends a session after 7 idle days, slides it while used, and ends it after 30 days regardless", async () => {
        const { browser } = await signUpBrowser(app.url);
        clock.advance(SESSION_IDLE_MS - 60_000);
        expect((await browser.get("/")).status).toBe(200);
        // Used just before the idle limit: it slid forward, so another 6 days are fine.
        clock.advance(6 * 24 * 3600_000);
        expect((await browser.get("/")).status).toBe(200);
        clock.advance(SESSION_IDLE_MS + 1);
        expect((await browser.get("/")).status).toBe(303);

        const { browser: busy } = await signUpBrowser(app.url);
        const fiveDays = 5 * 24 * 3600_000;
        for (let day = 5; day <= 25; day += 5) {
          clock.advance(fiveDays);
          expect((await busy.get("/")).status, `used on day ${day}`).toBe(200);
        }
        clock.advance(SESSION_ABSOLUTE_MS - 25 * 24 * 3600_000);
        expect((await busy.get("/")).status).toBe(303);
      });

      it("marks the cookie Secure when the request came over HTTPS (X-Forwarded-Proto behind a trusted proxy)", async () => {
        const browser = new HttpBrowser(app.url);
        const https = { "x-forwarded-proto": "https", origin: `https://${new URL(app.url).host}` };
        const form = await browser.get("/signup", https);
        expect(form.headers.getSetCookie().join("\n")).toMatch(/velvet_csrf=[^;]+;.*; Secure/);
        const { html } = await browser.page("/signup");
        const res = await browser.post(
          "/signup",
          {
            _csrf: csrfToken(html),
            storeName: "TLS",
            email: uniqueEmail(),
            password: TEST_PASSWORD,
          },
          https,
        );
        expect(res.status).toBe(303);
        const session =
          res.headers.getSetCookie().find((c) => c.startsWith("velvet_session=")) ?? "";
        expect(session).toContain("; Secure");
        expect(session).toContain("; HttpOnly");
      });
    },
  );
}
