/**
 * A fake Shopify GraphQL Admin API for customer writes, on loopback, as Shopify answers them:
 * `X-Shopify-Access-Token` checked (401 otherwise); `currentAppInstallation.accessScopes`;
 * `tagsAdd` / `tagsRemove` and `metafieldsSet` / `metafieldsDelete` on `gid://shopify/Customer/…`
 * with `userErrors` (an unknown customer, a metafield value that is not of its type); a token
 * without `write_customers` gets ACCESS_DENIED; a scripted THROTTLED answer carries
 * `extensions.cost.throttleStatus`. Failures other than auth are HTTP 200, as Shopify's are.
 * `metafieldsSet` takes at most 25 metafields and is atomic: with any user error nothing is
 * written (shopify.dev/docs/api/admin-graphql/latest/mutations/metafieldsSet). The Admin API
 * version in the URL falls forward once unsupported, named in `X-Shopify-API-Version`
 * (shopify-version.ts).
 */
import {
  type FakeAnswer,
  type FakeHttpService,
  type FakeRequest,
  startFakeHttpService,
} from "../support/fake-http-service.js";
import { THROTTLED_ERRORS } from "./shopify-query-cost.js";
import { servingVersion, versionInUrl } from "./shopify-version.js";

/** metafieldsSet's input limit (shopify.dev/docs/api/admin-graphql/latest/mutations/metafieldsSet). */
const METAFIELDS_SET_LIMIT = 25;

export interface FakeShopifyCustomer {
  tags: string[];
  metafields: Record<string, { type: string; value: string }>;
}

export interface FakeShopifyCustomers {
  /** The shop as a connection stores it (an origin: WEBHOOKS_ALLOW_PRIVATE in tests). */
  shop: string;
  token: string;
  /** A token whose app has read scopes only. */
  readOnlyToken: string;
  /** By numeric id. */
  customers: Map<string, FakeShopifyCustomer>;
  /** Each query, with the Admin API version it asked for and the one that answered. */
  requests: {
    query: string;
    variables: Record<string, unknown>;
    version: { asked: string; served: string };
  }[];
  throttle(n: number): void;
  /** Answers for the next calls, before the fake's rules (an outage: a 503 with Retry-After). */
  script: FakeHttpService["script"];
  close(): Promise<void>;
}

const cost = (requested: number, available: number) => ({
  cost: {
    requestedQueryCost: requested,
    actualQueryCost: available >= requested ? requested : null,
    throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 },
  },
});

export async function startFakeShopifyCustomers(
  options: { now?: () => number } = {},
): Promise<FakeShopifyCustomers> {
  const now = options.now ?? (() => Date.now());
  const token = "shpat_customers_0123456789abcdef";
  const readOnlyToken = "shpat_readonly_0123456789abcdef";
  const customers = new Map<string, FakeShopifyCustomer>();
  const requests: FakeShopifyCustomers["requests"] = [];
  let throttled = 0;

  function run(query: string, v: Record<string, unknown>, scopes: string[]) {
    if (/currentAppInstallation/.test(query)) {
      return {
        data: { currentAppInstallation: { accessScopes: scopes.map((handle) => ({ handle })) } },
      };
    }
    const calls = [
      ...query.matchAll(/\b(tagsAdd|tagsRemove|metafieldsSet|metafieldsDelete)\s*\(([^)]*)\)/g),
    ];
    const mutations = calls.map((m) => m[1] as string);
    // Each tags mutation reads the variable its own `tags:` argument names (`$tags`, `$untags`).
    const tagsVariable = new Map(
      calls.map((m) => [m[1] as string, /tags:\s*\$(\w+)/.exec(m[2] ?? "")?.[1] ?? "tags"]),
    );
    if (mutations.length === 0)
      return { errors: [{ message: "the fake serves customer writes only" }] };
    if (!scopes.includes("write_customers")) {
      return {
        data: Object.fromEntries(mutations.map((m) => [m, null])),
        errors: mutations.map((m) => ({
          message: `Access denied for ${m} field. Required access: \`write_customers\` access scope.`,
          path: [m],
          extensions: {
            code: "ACCESS_DENIED",
            documentation: "https://shopify.dev/api/usage/access-scopes",
          },
        })),
      };
    }
    const data: Record<string, unknown> = {};
    const find = (gid: unknown) =>
      customers.get(String(gid).replace("gid://shopify/Customer/", ""));
    for (const m of mutations) {
      if (m === "tagsAdd" || m === "tagsRemove") {
        const c = find(v.id);
        if (c === undefined) {
          data[m] = {
            node: null,
            userErrors: [{ field: ["id"], message: "Customer does not exist" }],
          };
          continue;
        }
        const tags = (v[tagsVariable.get(m) ?? "tags"] as string[]).map((t) => t.trim());
        c.tags =
          m === "tagsAdd"
            ? [...new Set([...c.tags, ...tags])]
            : c.tags.filter((t) => !tags.includes(t));
        data[m] = { node: { id: v.id }, userErrors: [] };
      } else {
        const list = (v.metafields ?? []) as Record<string, string>[];
        const userErrors: unknown[] = [];
        const done: unknown[] = [];
        if (m === "metafieldsSet" && list.length > METAFIELDS_SET_LIMIT) {
          data[m] = {
            metafields: null,
            userErrors: [
              {
                field: ["metafields"],
                message: `Exceeded the maximum metafields input limit of ${METAFIELDS_SET_LIMIT}.`,
                code: "LESS_THAN_OR_EQUAL_TO",
              },
            ],
          };
          continue;
        }
        const writes: (() => void)[] = [];
        list.forEach((f, i) => {
          const c = find(f.ownerId);
          if (c === undefined) {
            userErrors.push({
              field: ["metafields", String(i), "ownerId"],
              message: "Owner does not exist.",
              code: "INVALID",
            });
            return;
          }
          const key = `${f.namespace}.${f.key}`;
          if (m === "metafieldsDelete") {
            if (c.metafields[key] !== undefined)
              done.push({ key: f.key, namespace: f.namespace, ownerId: f.ownerId });
            delete c.metafields[key];
            return;
          }
          if (f.type === "number_integer" && !/^-?\d+$/.test(String(f.value))) {
            userErrors.push({
              field: ["metafields", String(i), "value"],
              message: "Value must be an integer.",
              code: "INVALID_VALUE",
            });
            return;
          }
          writes.push(() => {
            c.metafields[key] = { type: String(f.type), value: String(f.value) };
          });
          done.push({ id: `gid://shopify/Metafield/${i + 1}` });
        });
        // Atomic: one user error and nothing is written.
        if (userErrors.length === 0) for (const write of writes) write();
        data[m] =
          m === "metafieldsSet"
            ? { metafields: userErrors.length > 0 ? null : done, userErrors }
            : { deletedMetafields: done, userErrors };
      }
    }
    return { data };
  }

  // Every answer carries the version Shopify served (shopify-version.ts), as Shopify's do.
  const served = (req: FakeRequest) => {
    const asked = versionInUrl(req.url);
    return asked === null ? null : servingVersion(asked, now());
  };
  const answer = (req: FakeRequest): FakeAnswer => {
    const asked = versionInUrl(req.url);
    const version = served(req);
    const send = (status: number, body: unknown): FakeAnswer => ({ status, body });
    if (req.method !== "POST" || asked === null || version === null)
      return send(404, { errors: "Not Found" });
    const given = req.headers["x-shopify-access-token"];
    if (given !== token && given !== readOnlyToken)
      return send(401, {
        errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
      });
    const parsed = JSON.parse(req.raw) as {
      query: string;
      variables?: Record<string, unknown>;
    };
    requests.push({
      query: parsed.query,
      variables: parsed.variables ?? {},
      version: { asked, served: version },
    });
    if (throttled > 0) {
      throttled--;
      return send(200, {
        errors: THROTTLED_ERRORS,
        extensions: cost(20, 5),
      });
    }
    const scopes =
      given === token
        ? ["read_orders", "read_customers", "write_customers"]
        : ["read_orders", "read_customers"];
    return send(200, {
      ...run(parsed.query, parsed.variables ?? {}, scopes),
      extensions: cost(20, 1990),
    });
  };
  const service = await startFakeHttpService({
    answer,
    jsonType: "application/json; charset=utf-8",
    headersFor: (req): Record<string, string> => {
      const version = served(req);
      return version === null ? {} : { "x-shopify-api-version": version };
    },
  });
  const shop = service.url;
  return {
    shop,
    token,
    readOnlyToken,
    customers,
    requests,
    throttle: (n) => {
      throttled = n;
    },
    script: service.script,
    close: () => service.close(),
  };
}
