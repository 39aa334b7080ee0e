/** The sign-in and sign-up pages. */
import { MIN_PASSWORD_LENGTH } from "../../accounts/password.js";
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
<p class="switch">New to Velvet? <a href="/signup">Create an account</a></p>`,
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
  ${field({ name: "password", label: "Password", type: "password", error: e.password, autocomplete: "new-password", required: true, help: `At least ${MIN_PASSWORD_LENGTH} characters.` })}
  <button type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="/login">Log in</a></p>`,
  );
}
