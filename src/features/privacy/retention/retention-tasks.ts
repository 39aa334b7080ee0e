/** The two retention jobs, periodic tasks of the job queue (jobs/periodic-jobs.ts), hourly. */

import { z } from "zod";
import type { Deps } from "../../../deps.js";
import type { TaskDefinition } from "../../../jobs/task.js";
import type { PrivacyDeps } from "../privacy-registry.js";
import { clearOldProviderAnswers } from "./clear-provider-answers.js";
import { eraseInactiveCustomers } from "./erase-inactive-customers.js";

export const RETENTION_EVERY_MS = 60 * 60_000;
const NoPayload = z.object({});

export function retentionTasks(): TaskDefinition<Record<string, never>, Deps & PrivacyDeps>[] {
  return [
    {
      task: "clear-old-provider-answers",
      payload: NoPayload,
      periodic: { everyMs: RETENTION_EVERY_MS },
      async handle(deps, _payload, ctx) {
        const { more } = await clearOldProviderAnswers(deps, ctx.signal);
        return { kind: "again", delayMs: more ? 0 : RETENTION_EVERY_MS };
      },
    },
    {
      task: "erase-inactive-customers",
      payload: NoPayload,
      periodic: { everyMs: RETENTION_EVERY_MS },
      async handle(deps, _payload, ctx) {
        const { more } = await eraseInactiveCustomers(deps, ctx.signal);
        return { kind: "again", delayMs: more ? 0 : RETENTION_EVERY_MS };
      },
    },
  ];
}
