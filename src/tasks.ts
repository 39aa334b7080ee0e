/**
 * Every background task Velvet runs, in one list: the worker (in `velvet serve` and
 * `velvet worker`) runs exactly these. A feature adds its TaskDefinition here.
 */
import type { AppDeps } from "./app-deps.js";
import { alertTasks } from "./features/alerts/alert-tasks.js";
import { deliverToDestinationTask } from "./features/destinations/deliver-to-destination.js";
import { createEnrichCustomerTask } from "./features/enrichment/enrich-customer.js";
import {
  createRejudgeCustomerTask,
  createRejudgeOrdersTask,
} from "./features/enrichment/rejudge/rejudge-tasks.js";
import { resumeDeferredLookupsTask } from "./features/enrichment/resume-deferred-lookups.js";
import { refreshRatesTask } from "./features/exchange-rates/refresh-rates-task.js";
import { eraseClosedAccountTask } from "./features/privacy/erase-account-customers.js";
import { retentionTasks } from "./features/privacy/retention/retention-tasks.js";
import { createStoreSyncTask } from "./features/store-sync/sync-task.js";
import { createStoreEventTask } from "./features/store-webhooks/store-event-task.js";
import { createWebhookCheckTask } from "./features/store-webhooks/webhook-check-task.js";
import type { TaskDefinition } from "./jobs/task.js";

export function allTasks(deps: Pick<AppDeps, "alerts">): TaskDefinition<unknown, AppDeps>[] {
  return [
    createEnrichCustomerTask(),
    resumeDeferredLookupsTask(),
    createRejudgeOrdersTask(),
    createRejudgeCustomerTask(),
    ...alertTasks(deps.alerts),
    eraseClosedAccountTask(),
    ...retentionTasks(),
    refreshRatesTask(),
    createStoreSyncTask(),
    createStoreEventTask(),
    createWebhookCheckTask(),
    deliverToDestinationTask(),
  ];
}
