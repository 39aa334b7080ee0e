/** The visitor pages of the team: forgot password, choose a new password, accept an invitation. */
import { MIN_PASSWORD_LENGTH } from "../../accounts/password-rule.js";
import { ROLE_LABELS, type UserRole } from "../../team/roles.js";
import { type Notice, notice } from "../html/components.js";
import { field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";
import { bareCard } from "../html/layout.js";

const PASSWORD_HELP = `At least ${MIN_PASSWORD_LENGTH} characters, hard to guess: a few unrelated words work well.`;

export function forgotView(p: {
  csrfToken: string;
  notice?: Notice | null;
  email?: string;
}): SafeHtml {
  return bareCard(
    "Forgot password",
    html`<h1>Forgot your password?</h1>
<p class="muted">Enter the e-mail you log in with. If it belongs to an account, we send it a link to choose a new password.</p>
${notice(p.notice)}
<form method="post" action="/password/forgot" novalidate>
  <input type="hidden" name="_csrf" value="${p.csrfToken}">
  ${field({ name: "email", label: "E-mail", type: "email", value: p.email ?? "", autocomplete: "username", required: true, autofocus: true })}
  <button type="submit">Send the link</button>
</form>
<p class="switch"><a href="/login">Back to log in</a></p>`,
  );
}

/** The one answer to every reset request, whether or not the address has an account. */
export const FORGOT_NO_MAIL: Notice = {
  kind: "info",
  text: "This Velvet server cannot send e-mail, so no link was sent. Ask the person who runs this Velvet server for a link: they can print one for your address with velvet user reset-password. Your request was noted for them.",
};

export const FORGOT_SENT: Notice = {
  kind: "info",
  text: "If an account uses this address, a link to choose a new password is on its way; it works for one hour. No e-mail? Check spam, or ask the operator of this Velvet server for a link (velvet user reset-password).",
};

export function linkGoneView(what: "reset" | "invitation"): SafeHtml {
  const title = what === "reset" ? "This link no longer works" : "This invitation no longer works";
  return bareCard(
    title,
    html`<h1>${title}</h1>
<p class="muted">${
      what === "reset"
        ? "A password link works once, for one hour. Ask for a new one."
        : "An invitation works once, for 7 days. Ask whoever invited you for a new one."
    }</p>
<p>${what === "reset" ? html`<a class="button" href="/password/forgot">Ask for a new link</a>` : html`<a class="button" href="/login">Go to log in</a>`}</p>`,
  );
}

export function resetView(p: {
  csrfToken: string;
  token: string;
  email: string;
  firstPassword: boolean;
  error?: string;
}): SafeHtml {
  const title = p.firstPassword ? "Choose your password" : "Choose a new password";
  return bareCard(
    title,
    html`<h1>${title}</h1>
<p class="muted">For ${p.email}. ${p.firstPassword ? "" : "You will be signed out everywhere, then log in with the new password."}</p>
<form method="post" action="/password/reset" novalidate>
  <input type="hidden" name="_csrf" value="${p.csrfToken}">
  <input type="hidden" name="token" value="${p.token}">
  <input type="text" name="username" value="${p.email}" autocomplete="username" hidden>
  ${field({ name: "password", label: "New password", type: "password", autocomplete: "new-password", required: true, autofocus: true, error: p.error, help: PASSWORD_HELP })}
  <button type="submit">Save password</button>
</form>`,
  );
}

export function acceptView(p: {
  csrfToken: string;
  token: string;
  email: string;
  role: UserRole;
  accountName: string;
  error?: string;
}): SafeHtml {
  return bareCard(
    "Join the team",
    html`<h1>Join ${p.accountName} on Velvet</h1>
<p class="muted">You are invited as ${ROLE_LABELS[p.role].toLowerCase()}, with the e-mail ${p.email}. Choose a password to finish.</p>
<form method="post" action="/invitations/accept" novalidate>
  <input type="hidden" name="_csrf" value="${p.csrfToken}">
  <input type="hidden" name="token" value="${p.token}">
  <input type="text" name="username" value="${p.email}" autocomplete="username" hidden>
  ${field({ name: "password", label: "Password", type: "password", autocomplete: "new-password", required: true, autofocus: true, error: p.error, help: PASSWORD_HELP })}
  <button type="submit">Join and log in</button>
</form>`,
  );
}
