import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfToken,
  HttpBrowser,
  signUpBrowser,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { createAccount } from "../../accounts/create-account.js";
import { hashPassword } from "../../accounts/password.js";
import { hashSessionId } from "../session/session-token.js";

async function logInWith(
  app: TestApp,
  email: string,
  password: string,
  browser = new HttpBrowser(app.url),
) {
  const res = await browser.submit("/login", "/login", { email, password });
  return { browser, res };
}

function sessionCookieLine(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith("velvet_session="));
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `dashboard sign-up, log-in and log-out on ${engine.name}`,
    () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp(engine);
      });
      afterAll(() => app?.close());

      it("sends a visitor to /login, and back to the page they asked for after logging in", async () => {
        const { email } = await signInNewAccount(app);
        const visitor = new HttpBrowser(app.url);
        const first = await visitor.get("/customers?q=jane");
        expect(first.status).toBe(303);
        expect(first.headers.get("location")).toBe("/login?next=%2Fcustomers%3Fq%3Djane");
        const { html } = await visitor.page(first.headers.get("location") ?? "");
        expect(html).toContain('name="next" value="/customers?q=jane"');
        const res = await visitor.post("/login", {
          _csrf: csrfToken(html),
          email,
          password: TEST_PASSWORD,
          next: "/customers?q=jane",
        });
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe("/customers?q=jane");
      });

      it("never redirects off-site after logging in", async () => {
        const { email } = await signInNewAccount(app);
        for (const next of ["//evil.example", "https://evil.example/", "/\\evil.example"]) {
          const browser = new HttpBrowser(app.url);
          const { html } = await browser.page("/login");
          const res = await browser.post("/login", {
            _csrf: csrfToken(html),
            email,
            password: TEST_PASSWORD,
            next,
          });
          expect(res.headers.get("location")).toBe("/");
        }
      });

      it("sends a next that a header cannot carry to the default page, never a 500", async () => {
        const { email } = await signInNewAccount(app);
        // As a browser does it: the login page from the link, then its form as it came.
        const visitor = new HttpBrowser(app.url);
        const { html } = await visitor.page("/login?next=%2F%01");
        const carried = /name="next" value="([^"]*)"/.exec(html)?.[1];
        const res = await visitor.post("/login", {
          _csrf: csrfToken(html),
          email,
          password: TEST_PASSWORD,
          ...(carried === undefined ? {} : { next: carried }),
        });
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe("/");
        // And posted straight: a control character, a non-ASCII letter, a space, `//` inside.
        for (const next of ["/\u0001", "/caf\u00e9", "/a b", "/customers//x", "/a\\b"]) {
          const browser = new HttpBrowser(app.url);
          const page = await browser.page("/login");
          const direct = await browser.post("/login", {
            _csrf: csrfToken(page.html),
            email,
            password: TEST_PASSWORD,
            next,
          });
          expect(direct.status, JSON.stringify(next)).toBe(303);
          expect(direct.headers.get("location"), JSON.stringify(next)).toBe("/");
        }
      });

      it("signs up the first account: creates it, signs in, shows the first key once, then closes", async () => {
        const fresh = await startTestApp(engine);
        try {
          const visitor = new HttpBrowser(fresh.url);
          expect((await visitor.page("/login")).html).toContain('href="/signup"');
          const email = uniqueEmail();
          const { browser, apiKey } = await signUpBrowser(fresh.url, {
            storeName: "Maison Rose",
            email,
          });
          const user = await fresh.deps.db.kysely
            .selectFrom("users")
            .innerJoin("accounts", "accounts.id", "users.account_id")
            .select(["users.password_hash", "accounts.name"])
            .where("users.email_normalized", "=", email)
            .executeTakeFirstOrThrow();
          expect(user.name).toBe("Maison Rose");
          expect(user.password_hash).toMatch(/^\$argon2id\$/);
          expect(
            (await fresh.submit(apiKey, { email: "a@example.com", firstName: "A", lastName: "B" }))
              .status,
          ).toBe(200);
          const again = await browser.page("/settings/integrations");
          expect(again.html).not.toContain(apiKey);
          expect((await browser.page("/")).res.status).toBe(200);

          // SIGNUP unset: with one account on the server, sign-up is closed and says so.
          const later = new HttpBrowser(fresh.url);
          const closed = await later.page("/signup");
          expect(closed.res.status).toBe(200);
          expect(closed.html).toContain("Sign-up is closed");
          expect(closed.html).not.toContain('action="/signup"');
          expect((await later.page("/login")).html).not.toContain('href="/signup"');
          const refused = await later.submit("/login", "/signup", {
            storeName: "Second",
            email: uniqueEmail(),
            password: TEST_PASSWORD,
          });
          expect(refused.status).toBe(403);
          expect(await refused.text()).toContain("Sign-up is closed");
          expect(sessionCookieLine(refused)).toBeUndefined();
          const accounts = await fresh.deps.db.kysely.selectFrom("accounts").select("id").execute();
          expect(accounts).toHaveLength(1);
        } finally {
          await fresh.close();
        }
      });

      it("refuses a short or guessable password, a bad e-mail and a blank name, saying why", async () => {
        const fresh = await startTestApp(engine);
        try {
          const browser = new HttpBrowser(fresh.url);
          const bad = await browser.submit("/signup", "/signup", {
            storeName: " ",
            email: "nope",
            password: "12345678",
          });
          expect(bad.status).toBe(400);
          const html = await bad.text();
          expect(html).toContain("Enter your store&#39;s name.");
          expect(html).toContain("Enter a valid e-mail address");
          expect(html).toContain("Use at least 10 characters.");
          expect(html).toContain('aria-invalid="true"');
          for (const [password, why] of [
            ["password1234", "a common password with small changes"],
            ["aaaaaaaaaaaa", "it repeats characters"],
            ["1234567890", "most used passwords"],
            ["asdfghjkl;'", "a row of keys on the keyboard"],
          ] as const) {
            const res = await browser.submit("/signup", "/signup", {
              storeName: "Shop",
              email: uniqueEmail(),
              password,
            });
            expect(res.status, password).toBe(400);
            expect(await res.text(), password).toContain(why);
          }
          const own = await browser.submit("/signup", "/signup", {
            storeName: "Maison Rose",
            email: "maisonrose@example.com",
            password: "maisonrose1",
          });
          expect(own.status).toBe(400);
          expect(await fresh.deps.db.kysely.selectFrom("accounts").select("id").execute()).toEqual(
            [],
          );
        } finally {
          await fresh.close();
        }
      });

      it("sets the session cookie HttpOnly, SameSite=Lax, Path=/, not Secure over plain HTTP", async () => {
        const { email } = await signInNewAccount(app);
        const { res } = await logInWith(app, email, TEST_PASSWORD);
        const line = sessionCookieLine(res) ?? "";
        expect(line).toMatch(/^velvet_session=[A-Za-z0-9_-]{43}; /);
        expect(line).toContain("; Path=/");
        expect(line).toContain("; HttpOnly");
        expect(line).toContain("; SameSite=Lax");
        expect(line).toMatch(/Max-Age=\d+/);
        expect(line).not.toContain("Secure");
      });

      it("stores only the SHA-256 of the session id", async () => {
        const { browser } = await signInNewAccount(app);
        const raw = browser.cookies.get("velvet_session")?.value ?? "";
        const rows = await app.deps.db.kysely.selectFrom("sessions").select("id_hash").execute();
        expect(rows.some((r) => r.id_hash === raw)).toBe(false);
        expect(rows.some((r) => r.id_hash === hashSessionId(raw))).toBe(true);
      });

      it("issues a new session id at login, ending the one the browser brought (session fixation)", async () => {
        const { browser: owner, email } = await signInNewAccount(app);
        const planted = owner.cookies.get("velvet_session")?.value ?? "";
        // A session id known to someone else (here: a live one) sits in the browser that logs in.
        const victim = new HttpBrowser(app.url);
        const { html } = await victim.page("/login");
        victim.cookies.set("velvet_session", { value: planted, path: "/" });
        const res = await victim.post("/login", {
          _csrf: csrfToken(html),
          email,
          password: TEST_PASSWORD,
        });
        expect(res.status).toBe(303);
        const fresh = victim.cookies.get("velvet_session")?.value;
        expect(fresh).toBeDefined();
        expect(fresh).not.toBe(planted);
        expect((await owner.get("/")).status).toBe(303);
        expect((await victim.get("/")).status).toBe(200);
      });

      it("logs out: the session row is deleted, the cookie cleared, the old cookie useless", async () => {
        const { browser } = await signInNewAccount(app);
        const raw = browser.cookies.get("velvet_session")?.value ?? "";
        const res = await browser.submit("/", "/logout");
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe("/login?notice=logged-out");
        // Attribute order carries no meaning (RFC 6265 §4.1.1): check each one.
        const cleared = sessionCookieLine(res);
        expect(cleared).toMatch(/^velvet_session=;/);
        expect(cleared).toMatch(/; Path=\/(;|$)/);
        expect(cleared).toMatch(/; Max-Age=0(;|$)/);
        const row = await app.deps.db.kysely
          .selectFrom("sessions")
          .select("id_hash")
          .where("id_hash", "=", hashSessionId(raw))
          .executeTakeFirst();
        expect(row).toBeUndefined();
        const replay = new HttpBrowser(app.url);
        replay.cookies.set("velvet_session", { value: raw, path: "/" });
        expect((await replay.get("/")).status).toBe(303);
      });

      it("gives an unknown e-mail exactly the answer of a wrong password, at a similar cost", async () => {
        const { email } = await signInNewAccount(app);
        const browser = new HttpBrowser(app.url);
        const { html } = await browser.page("/login");
        const token = csrfToken(html);
        const timed = async (mail: string) => {
          const started = performance.now();
          const res = await browser.post("/login", {
            _csrf: token,
            email: mail,
            password: "wrong password",
          });
          return {
            status: res.status,
            body: (await res.text()).replace(mail, "EMAIL"),
            ms: performance.now() - started,
          };
        };
        const wrong = await timed(email);
        const unknown = await timed(uniqueEmail("nobody"));
        expect(unknown.status).toBe(401);
        expect(unknown.status).toBe(wrong.status);
        expect(unknown.body).toBe(wrong.body);
        // Both pay for one argon2 verification: without the dummy hash an unknown e-mail
        // would answer many times faster than a known one.
        const samples = { wrong: [] as number[], unknown: [] as number[] };
        for (let i = 0; i < 3; i++) {
          samples.wrong.push((await timed(email)).ms);
          samples.unknown.push((await timed(uniqueEmail("nobody"))).ms);
        }
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] as number;
        expect(median(samples.unknown)).toBeGreaterThan(median(samples.wrong) * 0.4);
      });

      it("lets an account created with `velvet account create --password` log in", async () => {
        const email = uniqueEmail("cli");
        await createAccount(
          app.deps.db.kysely,
          {
            name: "CLI Store",
            ownerEmail: email,
            passwordHash: await hashPassword("cli password"),
          },
          Date.now(),
        );
        expect((await logInWith(app, email, "cli password")).res.status).toBe(303);
        const noPassword = uniqueEmail("nopass");
        await createAccount(
          app.deps.db.kysely,
          { name: "No login", ownerEmail: noPassword, passwordHash: null },
          Date.now(),
        );
        expect((await logInWith(app, noPassword, "")).res.status).toBe(401);
      });
    },
  );
}
