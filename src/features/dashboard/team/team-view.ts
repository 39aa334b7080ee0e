/** Settings → Team: members with role and last sign-in, pending invitations, the invite form. */

import type { PendingInvitation, TeamMember } from "../../team/list-team.js";
import { atLeast, mayGrant, ROLE_LABELS, ROLES, type UserRole } from "../../team/roles.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { field } from "../html/fields.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

export interface TeamViewProps {
  session: DashboardSession;
  members: TeamMember[];
  invitations: PendingInvitation[];
  notice?: Notice | null;
  /** Right after an invitation: its link, shown this once. */
  invited?: { email: string; url: string; emailed: boolean; mailThrottled: boolean } | null;
  inviteValues?: { email?: string; role?: string };
  inviteError?: string;
}

/** The roles this user may hand out: an admin never grants owner. */
function grantable(role: UserRole): UserRole[] {
  return ROLES.filter((r) => mayGrant(role, r));
}

function invitationRow(s: DashboardSession, i: PendingInvitation): SafeHtml {
  const cancel = mayGrant(s.role, i.role)
    ? html`<form class="inline" method="post" action="/settings/team/invitations/cancel" data-confirm="Cancel the invitation of ${i.email}? Its link stops working at once.">${csrfField(s)}<input type="hidden" name="email" value="${i.email}"><button type="submit" class="danger small" aria-label="Cancel the invitation of ${i.email}">Cancel</button></form>`
    : "";
  return html`<tr><td class="primary-cell" data-label="E-mail">${i.email}</td><td data-label="Role">${ROLE_LABELS[i.role]}</td><td data-label="Link expires" class="nowrap">${timeTag(i.expiresAt)}</td><td data-label="Actions">${cancel}</td></tr>`;
}

function roleSelect(id: string, label: string, options: UserRole[], current: string): SafeHtml {
  return html`<label for="${id}" class="visually-hidden">${label}</label><select id="${id}" name="role">${options.map(
    (r) =>
      html`<option value="${r}"${r === current ? html` selected` : ""}>${ROLE_LABELS[r]}</option>`,
  )}</select>`;
}

function memberRow(s: DashboardSession, m: TeamMember): SafeHtml {
  const self = m.userId === s.userId;
  // Admins leave owners alone; nobody removes themselves here (no lock-out by a slip).
  const manageable = !self && (s.role === "owner" || m.role !== "owner");
  return html`<tr>
  <td class="primary-cell" data-label="Member">${m.email}${self ? html` <span class="muted small">(you)</span>` : ""}${
    m.hasPassword ? "" : html` <span class="badge warn">No password yet</span>`
  }</td>
  <td data-label="Role">${ROLE_LABELS[m.role]}</td>
  <td data-label="Last sign-in" class="nowrap">${timeTag(m.lastSignInAt, true, "Never")}</td>
  <td data-label="Actions">${
    manageable
      ? html`<div class="actions">
    <form class="inline" method="post" action="/settings/team/${m.userId}/role">${csrfField(s)}${roleSelect(`role-${m.userId}`, `Role of ${m.email}`, grantable(s.role), m.role)} <button type="submit" class="secondary small" aria-label="Change the role of ${m.email}">Change role</button></form>
    <form class="inline" method="post" action="/settings/team/${m.userId}/remove" data-confirm="Remove ${m.email}? They are signed out at once.">${csrfField(s)}<button type="submit" class="danger small" aria-label="Remove ${m.email}">Remove</button></form>
  </div>`
      : ""
  }</td>
</tr>`;
}

function invitedBox(i: NonNullable<TeamViewProps["invited"]>): SafeHtml {
  return html`<section class="secret-box" aria-labelledby="invited-title">
  <h2 id="invited-title">Invitation for ${i.email}</h2>
  <p>${i.emailed ? "We e-mailed this link. You can also send it yourself:" : i.mailThrottled ? "This address or this account had too many invitation e-mails today, so this one was not mailed. Send this link yourself:" : "E-mail is not set up on this server (SMTP_URL), so send this link yourself:"}</p>
  <div class="secret-row">
    <code class="secret" id="invite-link">${i.url}</code>
    <button type="button" class="secondary copy-button" data-copy="invite-link">Copy link</button>
  </div>
  <p><strong>It is shown only now.</strong> It works once and stops working after 7 days, or when it is cancelled below; inviting the address again makes a new one.</p>
</section>`;
}

export function teamView(p: TeamViewProps): SafeHtml {
  const s = p.session;
  const v = p.inviteValues ?? {};
  return page({
    title: "Team",
    session: s,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("Team", "Who can sign in to this account, and what each may do.")}
${settingsTabs("team", s.role)}
${notice(p.notice)}
${p.invited ? invitedBox(p.invited) : ""}
<section class="panel" aria-labelledby="members-title">
  <div class="panel-head"><h2 id="members-title">Members</h2><span class="muted small">${p.members.length} ${p.members.length === 1 ? "person" : "people"}</span></div>
  <div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Last sign-in</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.members.map((m) => memberRow(s, m))}</tbody>
  </table></div>
  <p class="muted small">Owner: everything, including the team and closing the account. Admin: everything but owners and closing the account. Member: customers, alerts and billing, read only.</p>
</section>
${
  p.invitations.length > 0
    ? html`<section class="panel" aria-labelledby="pending-title">
  <h2 id="pending-title">Invitations waiting</h2>
  <div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Link expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.invitations.map((i) => invitationRow(s, i))}</tbody>
  </table></div>
</section>`
    : ""
}
<section class="panel" aria-labelledby="invite-title">
  <h2 id="invite-title">Invite a colleague</h2>
  <form method="post" action="/settings/team/invite" novalidate>
    ${csrfField(s)}
    ${field({ name: "email", label: "Their e-mail", type: "email", value: v.email ?? "", error: p.inviteError, autocomplete: "off", required: true })}
    <div class="field"><label for="f-role">Role</label><select id="f-role" name="role">${grantable(
      s.role,
    ).map(
      (r) =>
        html`<option value="${r}"${r === (v.role ?? "member") ? html` selected` : ""}>${ROLE_LABELS[r]}</option>`,
    )}</select></div>
    <div class="actions"><button type="submit">Create invitation</button></div>
  </form>
  ${atLeast(s.role, "owner") ? "" : html`<p class="muted small">Only an owner can invite another owner.</p>`}
</section>`,
  });
}
