/**
 * A store's connect form as sent, split in two. Identifiers (shop domain, client id, store
 * address, consumer key, days to read) come back filled in when the page is shown again after a
 * refusal or a "Preview cost"; secrets (client secret, Admin API token, webhook secret, consumer
 * secret) never
 * do: a secret in a page stays in the browser's memory and form history, in screenshots, HAR
 * files and any proxy that keeps bodies. The page says which secret to enter again instead.
 *
 * The client id and the consumer key are identifiers: neither opens anything without its secret,
 * and Shopify shows the client id in every install link.
 */
import { formField } from "../http/form-body.js";

export type ConnectForm = "shopify" | "woocommerce";

/** What the page may show again: identifiers only. */
export interface KeptValues {
  shop?: string;
  clientId?: string;
  url?: string;
  key?: string;
  backfillDays?: string;
}

/** The form fields that hold a secret, as the forms name them. */
export type SecretField = "client_secret" | "token" | "webhook_secret" | "secret";

const SECRET_FIELDS: Record<ConnectForm, readonly SecretField[]> = {
  shopify: ["client_secret", "token", "webhook_secret"],
  woocommerce: ["secret"],
};

export interface SentConnectForm {
  kept: KeptValues;
  /** Each field, trimmed (secrets included): for the credentials only, never for the page. */
  field(name: string): string;
  /** The secret fields that were filled in: the page leaves them empty and asks for them again. */
  retype: SecretField[];
  /** The secrets sent, to keep them out of any message the page shows. */
  secrets: string[];
}

export function readConnectForm(form: ConnectForm, body: unknown): SentConnectForm {
  const field = (name: string) => formField(body, name).trim();
  const backfillDays = formField(body, `${form}-backfill`);
  const kept: KeptValues =
    form === "shopify"
      ? { shop: formField(body, "shop"), clientId: field("client_id"), backfillDays }
      : { url: formField(body, "url"), key: formField(body, "key"), backfillDays };
  const retype = SECRET_FIELDS[form].filter((name) => formField(body, name) !== "");
  const secrets = retype.map(field);
  return { kept, field, retype, secrets };
}
