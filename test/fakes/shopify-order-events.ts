/**
 * What a merchant or buyer does to a fake Shopify's orders, as the events Shopify raises for it:
 * placing an order adds it to `orders` (polling reads it) and delivers `orders/create`; an edit
 * moves `updatedAt` and delivers `orders/updated`; a cancellation sets `cancelledAt` and, as
 * one merchant action, delivers `orders/cancelled` and `orders/updated` (the same
 * X-Shopify-Event-Id: shopify-webhooks.ts). Topics: https://shopify.dev/docs/api/webhooks/2026-10
 * (orders/cancelled "occurs whenever an order is cancelled"; orders/updated "occurs whenever an
 * order is updated").
 */
import type { ShopifyOrderNode } from "./shopify-orders.js";
import type { WebhookDeliverer } from "./shopify-webhooks.js";

export interface OrderEvents {
  /** Adds the order and delivers orders/create. */
  placeOrder(node: ShopifyOrderNode): ShopifyOrderNode;
  /** Changes the order (its updatedAt moves) and delivers orders/updated. */
  updateOrder(id: string, changes: Partial<ShopifyOrderNode>): ShopifyOrderNode;
  /** Cancels the order: orders/cancelled and orders/updated. */
  cancelOrder(id: string): ShopifyOrderNode;
}

/**
 * An update lands at least a second after the last one, in whole seconds: Shopify's timestamps
 * (GraphQL DateTime, REST's `updated_at`) carry no milliseconds.
 */
function nextUpdate(previous: string): string {
  const second = (ms: number) => Math.floor(ms / 1000) * 1000;
  return new Date(Math.max(second(Date.now()), second(Date.parse(previous)) + 1000)).toISOString();
}

export function orderEvents(orders: ShopifyOrderNode[], deliverer: WebhookDeliverer): OrderEvents {
  const find = (id: string) => {
    const node = orders.find((o) => o.legacyResourceId === id);
    if (node === undefined) throw new Error(`the fake Shopify has no order ${id}`);
    return node;
  };
  return {
    placeOrder(node) {
      orders.push(node);
      deliverer.trigger(["ORDERS_CREATE"], node);
      return node;
    },
    updateOrder(id, changes) {
      const node = find(id);
      Object.assign(node, changes, { updatedAt: nextUpdate(node.updatedAt) });
      deliverer.trigger(["ORDERS_UPDATED"], node);
      return node;
    },
    cancelOrder(id) {
      const node = find(id);
      const at = nextUpdate(node.updatedAt);
      Object.assign(node, { cancelledAt: at, updatedAt: at });
      deliverer.trigger(["ORDERS_CANCELLED", "ORDERS_UPDATED"], node);
      return node;
    },
  };
}
