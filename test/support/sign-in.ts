/**
 * A signed-in merchant for dashboard tests whose subject is not sign-up: the account is made
 * the way the operator makes one (createAccount with a password, like `velvet account create`),
 * then the browser logs in through the real form. Sign-up itself closes after the first account
 * (SIGNUP unset), so tests that need several merchants on one server come in this way.
 */
import { createAccount } from "../../src/features/accounts/create-account.js";
import { hashPassword } from "../../src/features/accounts/password.js";
import { HttpBrowser, TEST_PASSWORD, uniqueEmail } from "../browser/http-browser.js";
import type { TestApp } from "./test-app.js";

let passwordHash: Promise<string> | null = null;

export async function signInNewAccount(
  app: Pick<TestApp, "url" | "deps">,
  props: { storeName?: string; email?: string } = {},
): Promise<{ browser: HttpBrowser; email: string; apiKey: string; accountId: string }> {
  const email = props.email ?? uniqueEmail();
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const created = await createAccount(
    app.deps.db.kysely,
    { name: props.storeName ?? "Test Store", ownerEmail: email, passwordHash: await passwordHash },
    app.deps.clock.now(),
  );
  const browser = new HttpBrowser(app.url);
  const res = await browser.submit("/login", "/login", { email, password: TEST_PASSWORD });
  if (res.status !== 303) throw new Error(`log-in answered ${res.status}: ${await res.text()}`);
  return { browser, email, apiKey: created.apiKey, accountId: created.accountId };
}
