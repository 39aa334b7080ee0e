/** The sign-in and sign-up pages. */
import { MIN_PASSWORD_LENGTH } from "../../accounts/password-rule.js";
import { type Notice, notice } from "../html/components.js";
import { field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";
import { bareCard } from "../html/layout.js";
import type { SignUpField } from "./sign-up.js";

export interface LoginViewProps {
  csrfToken: string;
  email?: string;
  next?: string;
  notice?: Notice | null;
  /** Whether to offer "Create an account" (sign-up is open). */
  signUpOpen?: boolean;
}

export function loginView(p: LoginViewProps): SafeHtml {
  return bareCard(
    "Log in",
    html`<h1>Log in</h1>
<p class="muted">Welcome back. Log in to see your customers, VIPs and alerts.</p>
${notice(p.notice)}
<form method="post" action="/login" novalidate>
  <input type="hidden" name="_csrf" value="${p.csrfToken}">
  ${p.next ? html`<input type="hidden" name="next" value="${p.next}">` : ""}
  ${field({ name: "email", label: "E-mail", type: "email", value: p.email ?? "", autocomplete: "username", required: true, autofocus: !p.email })}
  ${field({ name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true, autofocus: Boolean(p.email) })}
  <button type="submit">Log in</button>
</form>
<p class="switch"><a href="/password/forgot">Forgot password?</a></p>
${p.signUpOpen ? html`<p class="switch">New to Velvet? <a href="/signup">Create an account</a></p>` : ""}`,
  );
}

export interface SignUpViewProps {
  csrfToken: string;
  values?: { storeName?: string; email?: string };
  errors?: Partial<Record<SignUpField, string>>;
  notice?: Notice | null;
}

export function signUpView(p: SignUpViewProps): SafeHtml {
  const v = p.values ?? {};
  const e = p.errors ?? {};
  return bareCard(
    "Create your account",
    html`<h1>Create your account</h1>
<p class="muted">Send your orders to Velvet and hear about your VIP customers within seconds.</p>
${notice(p.notice)}
<form method="post" action="/signup" novalidate>
  <input type="hidden" name="_csrf" value="${p.csrfToken}">
  ${field({ name: "storeName", label: "Store name", value: v.storeName ?? "", error: e.storeName, autocomplete: "organization", required: true, autofocus: true })}
  ${field({ name: "email", label: "E-mail", type: "email", value: v.email ?? "", error: e.email, autocomplete: "email", required: true, help: "You will log in with it." })}
  ${field({ name: "password", label: "Password", type: "password", error: e.password, autocomplete: "new-password", required: true, help: `At least ${MIN_PASSWORD_LENGTH} characters, hard to guess: a few unrelated words work well.` })}
  <button type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="/login">Log in</a></p>`,
  );
}

export function signUpClosedView(): SafeHtml {
  return bareCard(
    "Sign-up is closed",
    html`<h1>Sign-up is closed</h1>
<p>This Velvet server does not take new sign-ups. If you should have an account, ask the person who runs this server to create one for you.</p>
<p class="switch">Already have an account? <a href="/login">Log in</a></p>`,
  );
}

export function checkInboxView(email: string): SafeHtml {
  return bareCard(
    "Check your inbox",
    html`<h1>Check your inbox</h1>
<p>We sent a message to <strong>${email}</strong>. Open the link in it within 24 hours to finish creating your account.</p>
<p class="muted">Nothing arrived after a few minutes? Look in your spam folder, or sign up again.</p>`,
  );
}

export function confirmSignUpView(p: { csrfToken: string; token: string }): SafeHtml {
  return bareCard(
    "Finish signing up",
    html`<h1>Finish signing up</h1>
<p>Your e-mail address is confirmed once you create the account.</p>
<form method="post" action="/signup/confirm">
  <input type="hidden" name="_csrf" value="${p.csrfToken}">
  <input type="hidden" name="token" value="${p.token}">
  <button type="submit">Create my account</button>
</form>`,
  );
}

export function signUpLinkInvalidView(reason: "invalid" | "taken"): SafeHtml {
  return bareCard(
    "Link not valid",
    html`<h1>This link cannot be used</h1>
<p>${
      reason === "taken"
        ? "An account with this e-mail address already exists. Log in instead."
        : "The link was already used or is more than 24 hours old. Sign up again to get a new one."
    }</p>
<p class="switch"><a href="/login">Log in</a></p>`,
  );
}
