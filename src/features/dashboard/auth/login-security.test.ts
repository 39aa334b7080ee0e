import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfToken,
  HttpBrowser,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { FIRST_DELAY_MS, THROTTLE_WINDOW_MS } from "../../security/auth-throttle.js";
import { KEEP_ATTEMPTS_MS } from "../../security/prune-security-records.js";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../session/session-token.js";

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

/** A log-in form ready to post: the page was loaded, its CSRF token taken. */
async function loginForm(app: TestApp) {
  const browser = new HttpBrowser(app.url);
  const { html } = await browser.page("/login");
  const token = csrfToken(html);
  return (email: string, password: string, headers: Record<string, string> = {}) =>
    browser.post("/login", { _csrf: token, email, password }, headers);
}

/** One log-in from `ip` (the trusted proxy on loopback reports it in X-Forwarded-For). */
async function attempt(app: TestApp, email: string, password: string, ip: string) {
  return (await loginForm(app))(email, password, { "x-forwarded-for": ip });
}

async function attemptsFor(app: TestApp, where: { email?: string; ip?: string }) {
  let query = app.deps.db.kysely.selectFrom("auth_attempts").selectAll();
  if (where.email) query = query.where("email", "=", where.email);
  if (where.ip) query = query.where("ip", "=", where.ip);
  return query.execute();
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `login throttling and session lifetime on ${engine.name}`,
    () => {
      const clock = manualClock();
      let app: TestApp;
      beforeAll(async () => {
        // Velvet behind a proxy on loopback: each test speaks from its own client address.
        app = await startTestApp(engine, { clock, env: { TRUST_PROXY: "127.0.0.1" } });
      });
      afterAll(() => app?.close());

      it("blocks an e-mail from one address after 5 failures, even the right password, with Retry-After", async () => {
        const { email } = await signInNewAccount(app);
        const ip = "198.51.100.1";
        for (let i = 0; i < 5; i++)
          expect((await attempt(app, email, "wrong password", ip)).status).toBe(401);
        const blocked = await attempt(app, email, TEST_PASSWORD, ip);
        expect(blocked.status).toBe(429);
        expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(
          THROTTLE_WINDOW_MS / 1000,
        );
        expect(await blocked.text()).toContain("Too many attempts");
        clock.advance(THROTTLE_WINDOW_MS + 1000);
        expect((await attempt(app, email, TEST_PASSWORD, ip)).status).toBe(303);
      });

      it("does not let failures from one address lock the owner out from another: they only slow it", async () => {
        const { email } = await signInNewAccount(app);
        for (let i = 0; i < 5; i++)
          expect((await attempt(app, email, "guess", "203.0.113.50")).status).toBe(401);
        expect((await attempt(app, email, TEST_PASSWORD, "203.0.113.50")).status).toBe(429);
        // The owner, elsewhere, gets in: after the growing delay, not a lock-out.
        const started = performance.now();
        expect((await attempt(app, email, TEST_PASSWORD, "198.51.100.99")).status).toBe(303);
        expect(performance.now() - started).toBeGreaterThanOrEqual(FIRST_DELAY_MS - 50);
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      it("checks at most 5 passwords of a burst of 100 concurrent guesses, and the right one at position 50 does not sign in", async () => {
        const { email } = await signInNewAccount(app);
        const ip = "198.51.100.7";
        const forms = await Promise.all(Array.from({ length: 100 }, () => loginForm(app)));
        const answers = await Promise.all(
          forms.map((post, i) =>
            post(email, i === 49 ? TEST_PASSWORD : `guess number ${i}`, {
              "x-forwarded-for": ip,
            }),
          ),
        );
        const statuses = answers.map((r) => r.status);
        expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(5);
        expect(statuses[49]).toBe(429);
        expect(statuses.filter((s) => s === 303)).toEqual([]);
        // Each reserved attempt is one argon2 verification: no more than the limit ran.
        expect((await attemptsFor(app, { email })).length).toBeLessThanOrEqual(5);
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      // Two servers, each with its own connections: the lock rows (PostgreSQL) and the write
      // lock (SQLite, waited for asynchronously) serialize their reservations.
      it("holds across processes: a burst split over two servers on one database checks at most 5", async () => {
        const second = await startTestApp(engine, {
          clock,
          database: app.database,
          env: { TRUST_PROXY: "127.0.0.1" },
        });
        try {
          const { email } = await signInNewAccount(app);
          const ip = "198.51.100.17";
          const forms = await Promise.all(
            Array.from({ length: 60 }, (_, i) => loginForm(i % 2 === 0 ? app : second)),
          );
          const answers = await Promise.all(
            forms.map((post, i) => post(email, `guess ${i}`, { "x-forwarded-for": ip })),
          );
          expect(answers.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(5);
          expect((await attemptsFor(app, { email, ip })).length).toBeLessThanOrEqual(5);
        } finally {
          await second.close();
        }
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      it("checks at most 30 passwords of a burst of 100 concurrent guesses at many e-mails from one address", async () => {
        const ip = "198.51.100.8";
        const forms = await Promise.all(Array.from({ length: 100 }, () => loginForm(app)));
        await Promise.all(
          forms.map((post) => post(uniqueEmail("spray"), "guess", { "x-forwarded-for": ip })),
        );
        expect((await attemptsFor(app, { ip })).length).toBeLessThanOrEqual(30);
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      it("throttles an unknown e-mail the same way (no account enumeration through 429s)", async () => {
        const nobody = uniqueEmail("nobody");
        for (let i = 0; i < 5; i++)
          expect((await attempt(app, nobody, "x", "198.51.100.3")).status).toBe(401);
        expect((await attempt(app, nobody, "x", "198.51.100.3")).status).toBe(429);
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      it("forgives an e-mail's failures after a successful login", async () => {
        const { email } = await signInNewAccount(app);
        for (let i = 0; i < 4; i++) await attempt(app, email, "wrong", "198.51.100.4");
        expect((await attempt(app, email, TEST_PASSWORD, "198.51.100.4")).status).toBe(303);
        for (let i = 0; i < 4; i++)
          expect((await attempt(app, email, "wrong", "198.51.100.4")).status).toBe(401);
        expect((await attempt(app, email, TEST_PASSWORD, "198.51.100.4")).status).toBe(303);
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      it("caps one client address at 30 failures across e-mails", async () => {
        const ip = "203.0.113.9";
        for (let i = 0; i < 30; i++)
          expect((await attempt(app, uniqueEmail("spray"), "x", ip)).status).toBe(401);
        const { email } = await signInNewAccount(app);
        expect((await attempt(app, email, TEST_PASSWORD, ip)).status).toBe(429);
        expect((await attempt(app, email, TEST_PASSWORD, "203.0.113.10")).status).toBe(303);
        clock.advance(THROTTLE_WINDOW_MS + 1000);
      });

      it("prunes attempts older than a day", async () => {
        expect((await attemptsFor(app, {})).length).toBeGreaterThan(0);
        clock.advance(KEEP_ATTEMPTS_MS + 60_000);
        await attempt(app, uniqueEmail("late"), "x", "198.51.100.200");
        const left = await attemptsFor(app, {});
        expect(left.map((r) => r.ip)).toEqual(["198.51.100.200"]);
      });

      it("ends a session after 7 idle days, slides it while used, and ends it after 30 days regardless", async () => {
        const { browser } = await signInNewAccount(app);
        clock.advance(SESSION_IDLE_MS - 60_000);
        expect((await browser.get("/")).status).toBe(200);
        // Used just before the idle limit: it slid forward, so another 6 days are fine.
        clock.advance(6 * 24 * 3600_000);
        expect((await browser.get("/")).status).toBe(200);
        clock.advance(SESSION_IDLE_MS + 1);
        expect((await browser.get("/")).status).toBe(303);

        const { browser: busy } = await signInNewAccount(app);
        const fiveDays = 5 * 24 * 3600_000;
        for (let day = 5; day <= 25; day += 5) {
          clock.advance(fiveDays);
          expect((await busy.get("/")).status, `used on day ${day}`).toBe(200);
        }
        clock.advance(SESSION_ABSOLUTE_MS - 25 * 24 * 3600_000);
        expect((await busy.get("/")).status).toBe(303);
      });

      it("marks the cookie Secure when the request came over HTTPS (X-Forwarded-Proto from the trusted proxy)", async () => {
        const { email } = await signInNewAccount(app);
        const browser = new HttpBrowser(app.url);
        const https = { "x-forwarded-proto": "https", origin: `https://${new URL(app.url).host}` };
        const form = await browser.get("/login", https);
        expect(form.headers.getSetCookie().join("\n")).toMatch(/velvet_csrf=[^;]+;.*; Secure/);
        const { html } = await browser.page("/login");
        const res = await browser.post(
          "/login",
          { _csrf: csrfToken(html), email, password: TEST_PASSWORD },
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

  describe.skipIf(!engine.available)(`trusted proxies on ${engine.name}`, () => {
    for (const trust of ["1", "127.0.0.1/32,10.0.0.0/8"]) {
      it(`ignores X-Forwarded-For entries a client wrote in front of the proxy's (TRUST_PROXY=${trust})`, async () => {
        const app = await startTestApp(engine, { env: { TRUST_PROXY: trust } });
        try {
          const { email } = await signInNewAccount(app);
          const client = "198.51.100.77";
          for (let i = 0; i < 5; i++) {
            // The client invents a new address each time; the proxy appends the real one.
            const spoofed = `203.0.113.${i + 1}, 10.9.8.${i}`;
            const post = await loginForm(app);
            const res = await post(email, "wrong", { "x-forwarded-for": `${spoofed}, ${client}` });
            expect(res.status).toBe(401);
          }
          const post = await loginForm(app);
          const blocked = await post(email, TEST_PASSWORD, {
            "x-forwarded-for": `192.0.2.200, ${client}`,
          });
          expect(blocked.status).toBe(429);
          const failed = (await attemptsFor(app, { email })).filter((r) => r.state === "failed");
          const ips = new Set(failed.map((r) => r.ip));
          expect([...ips]).toEqual([client]);
        } finally {
          await app.close();
        }
      });
    }

    it("uses the connection's address when TRUST_PROXY is unset, whatever X-Forwarded-For says", async () => {
      const app = await startTestApp(engine);
      try {
        const post = await loginForm(app);
        await post(uniqueEmail("direct"), "x", { "x-forwarded-for": "198.51.100.5" });
        const rows = await attemptsFor(app, {});
        expect(rows.map((r) => r.ip)).toEqual(["127.0.0.1"]);
      } finally {
        await app.close();
      }
    });
  });
}
