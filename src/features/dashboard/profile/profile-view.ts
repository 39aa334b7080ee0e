/** Settings → Profile: one's own password and signed-in sessions (every role). */

import { ROLE_LABELS } from "../../team/roles.js";
import type { UserSession } from "../../team/user-sessions.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { field } from "../html/fields.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

export interface ProfileViewProps {
  session: DashboardSession;
  sessions: UserSession[];
  notice?: Notice | null;
  errors?: { current?: string; password?: string };
}

function sessionRow(s: DashboardSession, u: UserSession, n: number): SafeHtml {
  const label = `session ${n} (${u.browser ?? "unknown browser"}, ${u.ip ?? "unknown address"})`;
  return html`<tr>
  <td class="primary-cell" data-label="Browser">${u.browser ?? "Unknown browser"}${u.current ? html` <span class="badge ok">This session</span>` : ""}</td>
  <td data-label="From">${u.ip ?? "—"}</td>
  <td data-label="Signed in" class="nowrap">${timeTag(u.createdAt)}</td>
  <td data-label="Last active" class="nowrap">${timeTag(u.lastSeenAt)}</td>
  <td data-label="Actions">${
    u.current
      ? ""
      : html`<form class="inline" method="post" action="/settings/profile/sessions/end">${csrfField(s)}<input type="hidden" name="session" value="${u.idHash}"><button type="submit" class="secondary small" aria-label="End ${label}">End</button></form>`
  }</td>
</tr>`;
}

export function profileView(p: ProfileViewProps): SafeHtml {
  const s = p.session;
  const others = p.sessions.filter((u) => !u.current).length;
  const e = p.errors ?? {};
  return page({
    title: "Profile",
    session: s,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("Profile", html`${s.userEmail} · ${ROLE_LABELS[s.role]} of ${s.accountName}`)}
${settingsTabs("profile", s.role)}
${notice(p.notice)}
<section class="panel" aria-labelledby="password-title">
  <h2 id="password-title">Change password</h2>
  <form method="post" action="/settings/profile/password" novalidate>
    ${csrfField(s)}
    <input type="text" name="username" value="${s.userEmail}" autocomplete="username" hidden>
    ${field({ name: "current", label: "Current password", type: "password", autocomplete: "current-password", required: true, error: e.current })}
    ${field({ name: "password", label: "New password", type: "password", autocomplete: "new-password", required: true, error: e.password, help: "At least 10 characters, hard to guess: a few unrelated words work well. Your other sessions are signed out." })}
    <div class="actions"><button type="submit">Change password</button></div>
  </form>
</section>
<section class="panel" aria-labelledby="sessions-title">
  <div class="panel-head"><h2 id="sessions-title">Where you are signed in</h2>${
    others > 0
      ? html`<form class="inline" method="post" action="/settings/profile/sessions/end-others">${csrfField(s)}<button type="submit" class="secondary small">Sign out all other sessions</button></form>`
      : ""
  }</div>
  <div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Browser</th><th scope="col">From</th><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.sessions.map((u, i) => sessionRow(s, u, i + 1))}</tbody>
  </table></div>
  <p class="muted small">"Last active" is updated at most once an hour. A session ends after 7 days without use, and 30 days after signing in.</p>
</section>`,
  });
}
