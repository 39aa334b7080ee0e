import { type Command, InvalidArgumentError } from "commander";
import { JOB_STATES, type JobListing, type JobState, listJobs } from "../../jobs/list-jobs.js";
import { retryJobs } from "../../jobs/retry-jobs.js";
import { allTasks } from "../../tasks.js";
import { CliError, printResult } from "../output.js";
import { parseLimit } from "../parse.js";
import { renderTable } from "../table.js";
import { withDeps } from "../with-deps.js";

function parseState(value: string): JobState {
  if (!(JOB_STATES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`the state is one of ${JOB_STATES.join(", ")}`);
  }
  return value as JobState;
}

export function registerJobs(program: Command): void {
  const jobs = program.command("jobs").description("the background job queue: list and retry");

  jobs
    .command("list")
    .description("jobs not yet done, oldest first (failed = given up, kept until retried)")
    .option("--state <state>", `only jobs in this state: ${JOB_STATES.join("|")}`, parseState)
    .option("--task <task>", "only jobs of this task (enrich-customer, deliver-chat-alert, …)")
    .option("--limit <n>", "at most this many jobs (default 100)", parseLimit)
    .option("--json", "print one JSON object")
    .action(async (opts: { state?: JobState; task?: string; limit?: number; json?: boolean }) => {
      const list = await withDeps((deps) =>
        listJobs(
          deps.db,
          { state: opts.state, task: opts.task, limit: opts.limit },
          deps.clock.now(),
        ),
      );
      printResult(Boolean(opts.json), { jobs: list }, () =>
        list.length === 0 ? "No jobs." : describeJobs(list),
      );
    });

  jobs
    .command("retry [id]")
    .description("run a given-up job again (or every one with --all-failed), as if new")
    .option("--all-failed", "retry every given-up job (with --task: of that task)")
    .option("--task <task>", "with --all-failed: only jobs of this task")
    .option("--json", "print one JSON object")
    .action(
      async (
        id: string | undefined,
        opts: { allFailed?: boolean; task?: string; json?: boolean },
      ) => {
        if ((id === undefined) === (opts.allFailed !== true)) {
          throw new CliError("give either a job id or --all-failed");
        }
        if (id !== undefined && opts.task !== undefined) {
          throw new CliError("--task goes with --all-failed");
        }
        const retried = await withDeps((deps) =>
          retryJobs(
            deps.db,
            allTasks(deps),
            id === undefined ? { allFailed: true, task: opts.task } : { id },
            deps.clock.now(),
          ),
        );
        if (id !== undefined && retried.length === 0) {
          throw new CliError(`No given-up job ${id} (see velvet jobs list --state failed)`);
        }
        printResult(Boolean(opts.json), { retried }, () =>
          retried.length === 0
            ? "No given-up jobs to retry."
            : `Retried ${retried.length} job${retried.length === 1 ? "" : "s"}: due now.`,
        );
      },
    );
}

/** One row per job under a header; a job's last error on the line below it, indented. */
function describeJobs(list: JobListing[]): string {
  const headers = ["id", "task", "state", "attempts", "run at", "job key", "request id"];
  const rows = list.map((j) => [
    j.id,
    j.task,
    j.state,
    `${j.attempts}/${j.maxAttempts}`,
    new Date(j.runAt).toISOString(),
    j.jobKey ?? "-",
    j.requestId ?? "-",
  ]);
  const lines = renderTable(headers, rows).split("\n");
  return lines
    .map((line, i) => {
      const error = i === 0 ? null : (list[i - 1]?.lastError ?? null);
      return error === null ? line : `${line}\n    last error: ${error}`;
    })
    .join("\n");
}
