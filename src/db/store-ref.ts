/**
 * Which store of which account a request or an import acts for. It lives below the features:
 * api-keys answers with one, orders and order-import write for one.
 */
export interface StoreRef {
  storeId: string;
  accountId: string;
}
