/**
 * Corporate versus free-mail address. The free-mail list is the `email-providers` package
 * (gmail.com, outlook.com, gmx.de, qq.com, … about 8,700 domains). A domain is matched as given
 * and by its registrable domain (public-suffix aware, via tldts), so `x@mail.yahoo.co.uk` counts
 * as yahoo.co.uk. Any domain not in the list is taken as corporate: a company, a school, a
 * personal vanity domain — all a step up from a free mailbox as a signal.
 */
import freeMailDomains from "email-providers/all.json" with { type: "json" };
import { getDomain } from "tldts";

const FREE_MAIL = new Set<string>(freeMailDomains);

export type EmailDomainKind = "corporate" | "free_mail";

export interface EmailDomain {
  /** The registrable domain when there is one, else the domain as written. */
  domain: string;
  kind: EmailDomainKind;
}

export function classifyEmailDomain(email: string): EmailDomain {
  const host = email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  const registrable = getDomain(host, { allowPrivateDomains: true }) ?? host;
  const free = FREE_MAIL.has(host) || FREE_MAIL.has(registrable);
  return { domain: registrable, kind: free ? "free_mail" : "corporate" };
}
