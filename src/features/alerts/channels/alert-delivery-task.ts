/**
 * A channel's delivery task: its handler (deliverAlert with the channel's driver), the alerts'
 * backoff, and what every alert task does when it is given up (the alert marked failed) and when
 * it is retried by hand (the alert pending again).
 */
import type { Deps } from "../../../deps.js";
import type { TaskDefinition, TaskType } from "../../../jobs/task.js";
import type { MetricsDeps } from "../../metrics/metrics.js";
import { ALERT_BACKOFF, type AlertJobPayload, type AlertJobPayloadSchema } from "../alert-job.js";
import { markAlertFailed } from "../record-delivery-attempt.js";
import { requeueFailedAlert } from "../requeue-failed-alert.js";

type AlertTask = TaskDefinition<AlertJobPayload, Deps & MetricsDeps>;

export function alertDeliveryTask(
  task: TaskType<typeof AlertJobPayloadSchema>,
  handle: AlertTask["handle"],
  extra: Pick<AlertTask, "onWorkerStart"> = {},
): AlertTask {
  return {
    ...task,
    backoff: ALERT_BACKOFF,
    handle,
    ...extra,
    onGiveUp: (deps, payload, error) => markAlertFailed(deps.db.kysely, payload.alertId, error),
    onRetry: (trx, payload) => requeueFailedAlert(trx, payload.alertId),
  };
}
