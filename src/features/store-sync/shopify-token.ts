/**
 * The Admin API token of a Shopify connection. Either a fixed token (`shpat_…`, from an app
 * made in the shop's admin before 2026), used as it is; or a Dev Dashboard app's client id and
 * secret, exchanged for a token by the client-credentials grant:
 * `POST https://{shop}/admin/oauth/access_token` (form: grant_type=client_credentials,
 * client_id, client_secret) → `{access_token, scope, expires_in}`. Such a token lives about 24
 * hours: it is renewed when less than RENEW_BEFORE_MS remain, and once more when Shopify answers
 * 401 anyway. Each new token is handed to `onCredentials` to be saved (sealed) with the
 * connection, so the next run does not ask again.
 *
 * A refused grant (400/401/403: a wrong secret, the app not installed on the shop) breaks the
 * connection; a grant that fails otherwise (5xx, a timeout) is transient, never broken.
 */
import { z } from "zod";
import type { ShopifyCredentials } from "./credentials.js";
import { PlatformError, type PlatformHttp, transient } from "./platform-http.js";

export const RENEW_BEFORE_MS = 5 * 60 * 1000;

const Grant = z.object({
  access_token: z.string().min(1),
  scope: z.string().default(""),
  expires_in: z.number().positive(),
});

export interface ShopifyTokenSource {
  /** A token valid now. */
  current(signal: AbortSignal): Promise<string>;
  /** After a 401: a fresh token, or null when the token is fixed and cannot be renewed. */
  renew(signal: AbortSignal): Promise<string | null>;
  /** The granted scopes as the grant listed them; null for a fixed token (ask Shopify). */
  scopes(): string[] | null;
}

export function shopifyTokenSource(
  http: PlatformHttp,
  origin: string,
  credentials: ShopifyCredentials,
  onCredentials?: (credentials: ShopifyCredentials) => void | Promise<void>,
): ShopifyTokenSource {
  const fixed = credentials.token;
  if (fixed !== undefined) {
    return { current: async () => fixed, renew: async () => null, scopes: () => null };
  }
  let held = credentials;

  async function grant(signal: AbortSignal): Promise<string> {
    const body = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: held.clientId ?? "",
      client_secret: held.clientSecret ?? "",
    });
    let text: string;
    try {
      const res = await http.call(
        `${origin}/admin/oauth/access_token`,
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: body.toString(),
        },
        signal,
      );
      text = res.body;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const { status } = error.failure as { status?: number };
      if (status === 400 || status === 401 || status === 403 || status === 404) {
        throw new PlatformError({
          kind: "broken",
          status,
          message: `Shopify refused the app's client id and secret (${error.message}): check them in the Dev Dashboard (app › Settings) and that the app is installed on this shop`,
        });
      }
      throw error;
    }
    const parsed = Grant.safeParse(safeParse(text));
    if (!parsed.success) throw transient("Shopify answered the token request unreadably");
    held = {
      ...held,
      accessToken: parsed.data.access_token,
      scope: parsed.data.scope,
      expiresAt: Date.now() + parsed.data.expires_in * 1000,
    };
    await onCredentials?.(held);
    return parsed.data.access_token;
  }

  return {
    async current(signal) {
      const fresh =
        held.accessToken !== undefined && (held.expiresAt ?? 0) - Date.now() > RENEW_BEFORE_MS;
      return fresh && held.accessToken ? held.accessToken : grant(signal);
    },
    renew: (signal) => grant(signal),
    scopes: () =>
      held.scope === undefined
        ? null
        : held.scope
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
