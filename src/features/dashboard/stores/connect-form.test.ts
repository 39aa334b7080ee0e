/**
 * The connect forms never send a secret back, on both engines: every refusal the forms can
 * reach against the fake Shopify and WooCommerce (a field missing, both kinds of Shopify
 * credentials, the days out of range, a wrong token, client secret or consumer secret, missing
 * scopes, no protected customer data, a platform that repeats the secret in its answer), each
 * sent with Connect and with Preview cost, and a preview that succeeds. Each answer keeps the
 * identifiers, leaves the secret fields empty, says which to enter again, and holds none of the
 * secrets sent anywhere in its body or headers.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../../test/fakes/shopify-admin.js";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
} from "../../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { STORES_PATH } from "./stores-view.js";

/** A secret no page could contain by chance. */
const made = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

interface Case {
  name: string;
  form: "shopify" | "woocommerce";
  fields: () => Record<string, string>;
  /** Before sending: script the platform's next answer. */
  before?: () => void;
  status: number;
  says: string;
}

const SECRET_FIELDS = ["client_secret", "token", "secret"];
const RETYPE = "Velvet never sends a secret back to the page";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`connect forms send no secret back on ${engine.name}`, () => {
    let app: TestApp;
    let shopify: FakeShopify;
    let noScopes: FakeShopify;
    let noCustomerData: FakeShopify;
    let woo: FakeWooCommerce;
    beforeAll(async () => {
      [app, shopify, noScopes, noCustomerData, woo] = await Promise.all([
        startTestApp(engine, { env: STORE_SYNC_ENV }),
        startFakeShopify(),
        startFakeShopify({ scopes: "read_customers" }),
        startFakeShopify({ protectedCustomerData: false }),
        startFakeWooCommerce(),
      ]);
      // Shopify withholds the customer data of an order: without an order there is nothing to refuse.
      noCustomerData.orders.push(
        shopifyOrder("ada@navy-systems.com", new Date(Date.now() - 86_400_000)),
      );
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([shopify, noScopes, noCustomerData, woo].map((fake) => fake?.close()));
    });

    const cases: Case[] = [
      {
        name: "Shopify: no shop domain",
        form: "shopify",
        fields: () => ({ shop: "", token: made("shpat") }),
        status: 400,
        says: "Fill in the shop domain.",
      },
      {
        name: "Shopify: a token and a client id and secret",
        form: "shopify",
        fields: () => ({
          shop: shopify.shop,
          client_id: shopify.clientId,
          client_secret: made("shpss"),
          token: made("shpat"),
        }),
        status: 400,
        says: "client id and client secret, or",
      },
      {
        name: "Shopify: a client secret without its client id",
        form: "shopify",
        fields: () => ({ shop: shopify.shop, client_secret: made("shpss") }),
        status: 400,
        says: "client id and client secret, or",
      },
      {
        name: "Shopify: days out of range",
        form: "shopify",
        fields: () => ({ shop: shopify.shop, token: made("shpat"), "shopify-backfill": "99999" }),
        status: 400,
        says: "a whole number of days from 0 to 3650",
      },
      {
        name: "Shopify: a wrong token",
        form: "shopify",
        fields: () => ({ shop: shopify.shop, token: made("shpat") }),
        status: 400,
        says: "the store refused the credentials (401",
      },
      {
        name: "Shopify: a wrong client secret",
        form: "shopify",
        fields: () => ({
          shop: shopify.shop,
          client_id: shopify.clientId,
          client_secret: made("shpss"),
        }),
        status: 400,
        says: "client id and secret (the store refused the credentials (401",
      },
      {
        name: "Shopify: the app lacks the read_orders scope",
        form: "shopify",
        fields: () => ({ shop: noScopes.shop, token: noScopes.token }),
        status: 400,
        says: "ACCESS_DENIED",
      },
      {
        name: "Shopify: no protected customer data",
        form: "shopify",
        fields: () => ({
          shop: noCustomerData.shop,
          client_id: noCustomerData.clientId,
          client_secret: noCustomerData.clientSecret,
        }),
        status: 400,
        says: "protected customer data",
      },
      {
        name: "Shopify: an answer that repeats the token",
        form: "shopify",
        fields: () => ({ shop: shopify.shop, token: shopify.token }),
        before: () =>
          shopify.reply({ status: 403, body: `{"errors":"token ${shopify.token} is blocked"}` }),
        status: 400,
        says: "token [secret hidden] is blocked",
      },
      {
        name: "WooCommerce: no store address",
        form: "woocommerce",
        fields: () => ({ url: "", key: woo.key, secret: made("cs") }),
        status: 400,
        says: "Fill in every field.",
      },
      {
        name: "WooCommerce: days out of range",
        form: "woocommerce",
        fields: () => ({
          url: woo.url,
          key: woo.key,
          secret: made("cs"),
          "woocommerce-backfill": "-1",
        }),
        status: 400,
        says: "a whole number of days from 0 to 3650",
      },
      {
        name: "WooCommerce: a wrong consumer secret",
        form: "woocommerce",
        fields: () => ({ url: woo.url, key: woo.key, secret: made("cs") }),
        status: 400,
        says: "the store refused the credentials (401",
      },
      {
        name: "WooCommerce: an answer that repeats the secret",
        form: "woocommerce",
        fields: () => ({ url: woo.url, key: woo.key, secret: woo.secret }),
        before: () =>
          woo.reply({ status: 403, body: `{"code":"blocked","message":"${woo.secret} blocked"}` }),
        status: 400,
        says: "[secret hidden] blocked",
      },
    ];

    async function send(form: Case["form"], fields: Record<string, string>) {
      const { browser } = await signInNewAccount(app);
      const res = await browser.submit(STORES_PATH, `${STORES_PATH}/${form}`, fields);
      const headers = JSON.stringify([...res.headers]);
      return { status: res.status, body: await res.text(), headers };
    }

    function expectNoSecretBack(
      answer: { body: string; headers: string },
      fields: Record<string, string>,
    ) {
      const secrets = SECRET_FIELDS.map((name) => fields[name]).filter((v) => v !== undefined);
      for (const secret of secrets) {
        expect(answer.body).not.toContain(secret);
        expect(answer.headers).not.toContain(secret);
      }
      // The secret fields are there, empty; the ones that were filled in say so.
      for (const name of SECRET_FIELDS) {
        const input = new RegExp(`<input type="password" id="f-${name}" name="${name}"[^>]*>`);
        const tag = input.exec(answer.body)?.[0];
        if (tag !== undefined) expect(tag).toContain('value=""');
      }
      if (secrets.length > 0) expect(answer.body).toContain(RETYPE);
      // The identifiers are kept.
      for (const name of ["shop", "client_id", "url", "key"]) {
        const value = fields[name];
        if (value) expect(answer.body).toContain(`value="${value}"`);
      }
    }

    for (const c of cases) {
      for (const preview of [false, true]) {
        it(`${c.name}${preview ? " (Preview cost)" : ""}`, async () => {
          const fields = { ...c.fields(), ...(preview ? { preview: "1" } : {}) };
          c.before?.();
          const answer = await send(c.form, fields);
          expect(answer.status).toBe(c.status);
          expect(answer.body).toContain(c.says);
          expectNoSecretBack(answer, fields);
        });
      }
    }

    it("a preview that succeeds keeps the identifiers and asks for the secret again", async () => {
      for (const [form, fields] of [
        [
          "shopify",
          { shop: shopify.shop, client_id: shopify.clientId, client_secret: shopify.clientSecret },
        ],
        ["shopify", { shop: shopify.shop, token: shopify.token }],
        ["woocommerce", { url: woo.url, key: woo.key, secret: woo.secret }],
      ] as const) {
        const sent = { ...fields, preview: "1" };
        const answer = await send(form, sent);
        expect(answer.status).toBe(200);
        expect(answer.body).toContain(`id="cost-preview-${form}"`);
        expect(answer.body).toMatch(
          /Enter the (client secret|Admin API access token|consumer secret) again and press Connect/,
        );
        expectNoSecretBack(answer, sent);
      }
    });
  });
}
