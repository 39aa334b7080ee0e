/** The alert feature's background tasks, for the worker's task list (`src/tasks.ts`). */
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import type { AlertDelivery } from "./alert-deps.js";
import { CHANNELS } from "./channels/channel-registry.js";
import { notifyBudget } from "./notify-budget.js";
import { notifyChannelOutage } from "./notify-channel-outage.js";

export function alertTasks(delivery: AlertDelivery): TaskDefinition<unknown, Deps & MetricsDeps>[] {
  return [
    ...CHANNELS.map((channel) => channel.deliveryTask(delivery)),
    notifyChannelOutage(delivery),
    notifyBudget(delivery),
  ];
}
