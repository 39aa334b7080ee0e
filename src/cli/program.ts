/** The `velvet` command: one program, each subcommand in its own file. */
import { Command } from "commander";
import { registerAccount } from "./commands/account.js";
import { registerAlerts } from "./commands/alerts.js";
import { registerAudit } from "./commands/audit.js";
import { registerCustomer } from "./commands/customer.js";
import { registerData } from "./commands/data.js";
import { registerDestination } from "./commands/destination.js";
import { registerImport } from "./commands/import.js";
import { registerJobs } from "./commands/jobs.js";
import { registerKey } from "./commands/key.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerServe } from "./commands/serve.js";
import { registerStore } from "./commands/store.js";
import { registerUsage } from "./commands/usage.js";
import { registerUser } from "./commands/user.js";
import { registerWorker } from "./commands/worker.js";

export function buildProgram(): Command {
  const program = new Command("velvet")
    .description("Velvet: order intake and VIP detection")
    .showHelpAfterError()
    .exitOverride();
  registerServe(program);
  registerMigrate(program);
  registerAccount(program);
  registerAlerts(program);
  registerKey(program);
  registerUsage(program);
  registerWorker(program);
  registerJobs(program);
  registerCustomer(program);
  registerData(program);
  registerAudit(program);
  registerImport(program);
  registerStore(program);
  registerDestination(program);
  registerUser(program);
  return program;
}
