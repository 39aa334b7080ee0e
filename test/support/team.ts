/**
 * Team members for dashboard tests, made the way a merchant makes them: an owner or admin
 * invites through Settings → Team, the page shows the link, and the colleague accepts it
 * (choosing a password) in their own browser, which signs them in.
 */
import { HttpBrowser, TEST_PASSWORD, uniqueEmail } from "../browser/http-browser.js";

/** The one-time link shown on the Team page after an invitation, as a path on this server. */
export function invitationPathOnPage(html: string): string | null {
  const m = /<code class="secret" id="invite-link">([^<]+)<\/code>/.exec(html);
  if (!m?.[1]) return null;
  const url = new URL(m[1].replaceAll("&amp;", "&"));
  return `${url.pathname}${url.search}`;
}

export function tokenOf(pathOrUrl: string): string {
  const token = new URL(pathOrUrl, "http://x").searchParams.get("token");
  if (!token) throw new Error(`no token in ${pathOrUrl}`);
  return token;
}

export async function invite(
  inviter: HttpBrowser,
  role: string,
  email = uniqueEmail(role),
): Promise<{ email: string; path: string; res: Response; html: string }> {
  const res = await inviter.submit("/settings/team", "/settings/team/invite", { email, role });
  const html = await res.text();
  return { email, path: invitationPathOnPage(html) ?? "", res, html };
}

/** Invites `role` and accepts in a fresh browser: the new member, signed in. */
export async function addMember(
  baseUrl: string,
  inviter: HttpBrowser,
  role: string,
): Promise<{ browser: HttpBrowser; email: string }> {
  const { email, path, res } = await invite(inviter, role);
  if (res.status !== 200 || !path) throw new Error(`invitation answered ${res.status}`);
  const browser = new HttpBrowser(baseUrl);
  const accepted = await browser.submit(path, "/invitations/accept", {
    token: tokenOf(path),
    password: TEST_PASSWORD,
  });
  if (accepted.status !== 303) throw new Error(`accepting answered ${accepted.status}`);
  return { browser, email };
}
