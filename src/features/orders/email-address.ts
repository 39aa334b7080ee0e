/**
 * E-mail checks for order intake: the WHATWG "valid e-mail address" syntax, a domain with at
 * least one dot, at most 254 characters, and not a disposable provider. Disposable domains are
 * matched on the exact domain and on its registrable domain (public-suffix aware), so
 * `x@sub.mailinator.com` is caught as well as `x@mailinator.com`.
 */
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import { getDomain } from "tldts";

// https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address
const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const MAX_LENGTH = 254;

const disposable = disposableEmailBlocklistSet();

export type EmailVerdict = "ok" | "invalid" | "disposable";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkEmail(email: string): EmailVerdict {
  const value = email.trim();
  if (value.length > MAX_LENGTH || !WHATWG_EMAIL.test(value)) return "invalid";
  const domain = value.slice(value.lastIndexOf("@") + 1).toLowerCase();
  if (!domain.includes(".")) return "invalid";
  if (isDisposableDomain(domain)) return "disposable";
  return "ok";
}

export function isDisposableDomain(domain: string): boolean {
  if (disposable.has(domain)) return true;
  const registrable = getDomain(domain, { allowPrivateDomains: true });
  return registrable !== null && disposable.has(registrable);
}
