/**
 * Debian's Chromium driven by playwright-core (never a browser downloaded by npm). Without
 * Chromium on the machine the browser tests are skipped with a loud warning, except under
 * CI=true, where that is a failure: CI installs it (`apt-get install chromium`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const chromiumAvailable = fs.existsSync(CHROMIUM_PATH);

if (!chromiumAvailable) {
  const message = `Chromium is not installed at ${CHROMIUM_PATH}: the browser tests of the dashboard cannot run.`;
  if (process.env.CI === "true") throw new Error(`${message} Under CI=true this is a failure.`);
  process.stderr.write(
    `\n${"!".repeat(80)}\n!! WARNING: ${message}\n!! Skipping them. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).\n${"!".repeat(80)}\n\n`,
  );
}

export const SCREENSHOT_DIR = path.resolve("screenshots");
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

export interface ChromiumSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile (no cookies, no cache), closed and deleted after. */
export async function launchChromium(viewport = DESKTOP): Promise<ChromiumSession> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as screenshots/<name>-<desktop|phone>.png at both widths. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${label}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(original);
}

/** Waits for the element to be visible; fails the test (by timeout) when it never is. */
export async function visible(locator: Locator): Promise<boolean> {
  await locator.waitFor({ state: "visible" });
  return locator.isVisible();
}

/** Signs in through the log-in form, as a person would, and waits to leave it. */
export async function logInWithForm(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}
