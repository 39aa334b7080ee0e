/**
 * A minimal browser over fetch for HTTP-level dashboard tests: a cookie jar that honours Path
 * and Max-Age, manual redirects (so tests see each 303), and form posts that pick up the
 * page's CSRF token the way a real form would.
 */

interface StoredCookie {
  value: string;
  path: string;
}

export class HttpBrowser {
  readonly cookies = new Map<string, StoredCookie>();
  constructor(readonly baseUrl: string) {}

  cookieHeader(path: string): string {
    return [...this.cookies.entries()]
      .filter(
        ([, c]) =>
          path === c.path ||
          path.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`) ||
          c.path === "/",
      )
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
  }

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attrs] = line.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
      const maxAge = attrs.find((a) => a.toLowerCase().startsWith("max-age="));
      if (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  async request(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const cookie = this.cookieHeader(path.split("?")[0] ?? path);
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: "manual",
      body: init.body,
      headers: { ...(cookie ? { cookie } : {}), ...init.headers },
    });
    this.remember(res);
    return res;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request("GET", path, { headers });
  }

  /** GET, following redirects; returns the final response and its body. */
  async page(path: string): Promise<{ res: Response; html: string; url: string }> {
    let url = path;
    for (let i = 0; i < 5; i++) {
      const res = await this.get(url);
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer();
        url = location;
        continue;
      }
      return { res, html: await res.text(), url };
    }
    throw new Error(`too many redirects from ${path}`);
  }

  post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.request("POST", path, {
      body: new URLSearchParams(fields).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: this.baseUrl,
        ...headers,
      },
    });
  }

  /** Loads `pagePath`, takes its CSRF token, and posts `fields` to `action` like its form would. */
  async submit(
    pagePath: string,
    action: string,
    fields: Record<string, string> = {},
  ): Promise<Response> {
    const { html } = await this.page(pagePath);
    return this.post(action, { _csrf: csrfToken(html), ...fields });
  }
}

export function csrfToken(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m?.[1]) throw new Error("no CSRF token on the page");
  return m[1];
}

export function newKeyOnPage(html: string): string | null {
  return /<code class="secret" id="new-key">(sk_live_[0-9A-Za-z]+)<\/code>/.exec(html)?.[1] ?? null;
}

let counter = 0;
export function uniqueEmail(prefix = "owner"): string {
  counter++;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

export const TEST_PASSWORD = "correct horse battery";

/** Signs up through the form; returns the browser (signed in) and the first API key. */
export async function signUpBrowser(
  baseUrl: string,
  props: { storeName?: string; email?: string; password?: string } = {},
): Promise<{ browser: HttpBrowser; email: string; apiKey: string }> {
  const browser = new HttpBrowser(baseUrl);
  const email = props.email ?? uniqueEmail();
  const res = await browser.submit("/signup", "/signup", {
    storeName: props.storeName ?? "Test Store",
    email,
    password: props.password ?? TEST_PASSWORD,
  });
  if (res.status !== 303) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const { html } = await browser.page(res.headers.get("location") ?? "/");
  const apiKey = newKeyOnPage(html);
  if (!apiKey) throw new Error("sign-up did not show the first API key");
  return { browser, email, apiKey };
}
