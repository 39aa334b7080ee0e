import { type Command, InvalidArgumentError, Option } from "commander";
import { loadConfig } from "../../config.js";
import { changeAlertSettings } from "../../features/accounts/change-alert-settings.js";
import { createAccount } from "../../features/accounts/create-account.js";
import { getAccount } from "../../features/accounts/get-account.js";
import { hashPassword } from "../../features/accounts/password.js";
import { MIN_PASSWORD_LENGTH, passwordProblem } from "../../features/accounts/password-rule.js";
import {
  BUDGET_RULE,
  parseBudget,
  setMonthlyBudget,
} from "../../features/accounts/set-monthly-budget.js";
import { alertEmailStates } from "../../features/alerts/alert-email-states.js";
import type {
  ChannelSetting,
  ChannelValues,
} from "../../features/alerts/channels/alert-channel.js";
import {
  CHANNEL_SETTINGS,
  describeChannelSettings,
} from "../../features/alerts/channels/channel-registry.js";
import { recordAuditEvent } from "../../features/audit/record-audit-event.js";
import { formatTiers, TIERS_RULE, type Tier } from "../../features/customers/tiers.js";
import { checkEmail } from "../../features/orders/email-address.js";
import { INVITATION_TTL_MS } from "../../features/team/invite-member.js";
import { issueResetLink } from "../../features/team/password-reset.js";
import { commandActor } from "../cli-actor.js";
import { linkBaseNote } from "../link-base.js";
import { CliError, printResult } from "../output.js";
import { parseId, parseRateLimit, parseThreshold, parseTiersOption } from "../parse.js";
import { withDeps } from "../with-deps.js";
import { registerAccountDelete } from "./account-delete.js";
import { registerAccountList } from "./account-list.js";

export function registerAccount(program: Command): void {
  const account = program.command("account").description("create and configure merchant accounts");
  registerAccountList(account);

  account
    .command("create")
    .description("create an account with its store, owner and first API key")
    .requiredOption("--name <store name>", "the store's name")
    .requiredOption("--owner <email>", "the owner's e-mail address (their dashboard login)")
    .option(
      "--password <password>",
      `a dashboard password (at least ${MIN_PASSWORD_LENGTH} characters, not a guessable one); without it, a one-time link to choose one (7 days)`,
    )
    .option("--threshold <0-100>", "VIP threshold (default 70)", parseThreshold)
    .option("--json", "print one JSON object")
    .action(
      async (opts: {
        name: string;
        owner: string;
        password?: string;
        threshold?: number;
        json?: boolean;
      }) => {
        if (opts.name.trim() === "") throw new CliError("--name must not be blank");
        if (checkEmail(opts.owner) === "invalid")
          throw new CliError(`--owner is not a valid e-mail address: ${opts.owner}`);
        const problem =
          opts.password === undefined
            ? null
            : passwordProblem(opts.password, [opts.owner, opts.name]);
        if (problem !== null) throw new CliError(`--password is refused. ${problem}`);
        const passwordHash = opts.password === undefined ? null : await hashPassword(opts.password);
        const created = await withDeps(async (deps) => {
          const now = deps.clock.now();
          const props = {
            name: opts.name.trim(),
            ownerEmail: opts.owner,
            passwordHash,
            vipThreshold: opts.threshold,
          };
          const account = await createAccount(deps.db.kysely, props, now);
          const event = { accountId: account.accountId, actor: commandActor() };
          await recordAuditEvent(deps.db.kysely, { ...event, action: "account.created" }, now);
          // No password given: the owner chooses one through a one-time link, as a user added
          // with `user add` does; nothing is made up and lost on the way.
          const link =
            passwordHash === null
              ? await issueResetLink(deps, {
                  email: opts.owner,
                  actor: commandActor(),
                  ttlMs: INVITATION_TTL_MS,
                })
              : null;
          return { ...account, link };
        });
        const { accountId, storeId, apiKey, link } = created;
        const setPassword =
          link === null
            ? {}
            : { setPasswordUrl: link.resetUrl, expiresAt: new Date(link.expiresAt).toISOString() };
        printResult(Boolean(opts.json), { accountId, storeId, apiKey, ...setPassword }, () =>
          [
            `Account ${accountId} (store ${storeId}) created.`,
            `API key (shown once, keep it secret): ${apiKey}`,
            ...(link === null
              ? []
              : [
                  `The owner chooses a password with this link (works once, until ${setPassword.expiresAt}):`,
                  link.resetUrl,
                  ...linkBaseNote(loadConfig()),
                ]),
          ].join("\n"),
        );
      },
    );

  const set = account
    .command("set")
    .description("change an account's settings")
    .requiredOption("--account <id>", "the account id", parseId)
    .option(
      "--threshold <0-100>",
      "VIP threshold: a customer scoring above it is a VIP",
      parseThreshold,
    );
  // Each alert channel's settings, as the channel declares them (alerts/channels/).
  const channelOptions = CHANNEL_SETTINGS.map((setting) => {
    const option = new Option(setting.cli.flags, setting.cli.help);
    set.addOption(option);
    return { setting, key: option.attributeName() };
  });
  set
    .option(
      "--rate-limit <N>",
      'API requests a minute per key for this account (0: unlimited; "": the default)',
      parseRateLimit,
    )
    .option(
      "--monthly-budget <usd>",
      'monthly budget for paid provider lookups, in USD ("" removes it)',
      parseMonthlyBudget,
    )
    .option(
      "--tiers <Name:floor,…>",
      `named score floors, e.g. "Gold:90,Silver:80" ("" removes them). ${TIERS_RULE}`,
      parseTiersOption,
    )
    .option("--json", "print one JSON object")
    .action(
      async (opts: {
        account: string;
        threshold?: number;
        tiers?: Tier[];
        monthlyBudget?: string;
        rateLimit?: number | "default";
        json?: boolean;
      }) => {
        const { view, defaultLimit, channelLines } = await withDeps(async (deps) => {
          const channels = readChannelOptions(channelOptions, set.opts(), {
            allowPrivate: deps.config.alerts.allowPrivateWebhooks,
          });
          const current = await getAccount(deps.db.kysely, opts.account);
          if (!current) throw new CliError(`No account ${opts.account}`);
          if (current.closedAt !== null) throw new CliError(`Account ${opts.account} is closed`);
          await changeAlertSettings(
            deps.db.kysely,
            {
              accountId: opts.account,
              settings: {
                vipThreshold: opts.threshold,
                apiRateLimitPerMinute: opts.rateLimit === "default" ? null : opts.rateLimit,
                tiers: opts.tiers,
                channels,
              },
              actor: commandActor(),
            },
            deps.clock.now(),
          );
          if (opts.monthlyBudget !== undefined) {
            await setMonthlyBudget(
              deps.db.kysely,
              {
                accountId: opts.account,
                budgetUsd: opts.monthlyBudget === "none" ? null : opts.monthlyBudget,
                actor: commandActor(),
                maxAttempts: deps.config.enrichment.maxAttempts,
              },
              deps.clock.now(),
            );
          }
          const account = await getAccount(deps.db.kysely, opts.account);
          // Addresses added on the dashboard get no alert until their owner confirms them.
          const awaiting =
            account === null
              ? []
              : (await alertEmailStates(deps.db.kysely, opts.account, account.alertEmails))
                  .awaiting;
          const view = account && { ...account, alertEmailsAwaitingConfirmation: awaiting };
          const channelLines = await describeChannelSettings(deps.db.kysely, opts.account);
          return { view, defaultLimit: deps.config.apiRateLimitPerMinute, channelLines };
        });
        printResult(Boolean(opts.json), view ?? {}, () =>
          [
            `Account ${opts.account}: VIP threshold ${view?.vipThreshold}`,
            `Tiers: ${formatTiers(view?.tiers ?? []) || "none"}`,
            ...channelLines,
            `API rate limit: ${describeLimit(view?.apiRateLimitPerMinute ?? null, defaultLimit)}`,
            `Monthly lookup budget: ${view?.monthlyBudgetUsd == null ? "none" : `$${view.monthlyBudgetUsd}`}`,
          ].join("\n"),
        );
      },
    );

  registerAccountDelete(account);
}

/** The channel options given, each checked by its channel; a CliError names every refusal. */
function readChannelOptions(
  channelOptions: { setting: ChannelSetting; key: string }[],
  opts: Record<string, unknown>,
  policy: { allowPrivate: boolean },
): ChannelValues {
  const values: ChannelValues = {};
  const errors: string[] = [];
  for (const { setting, key } of channelOptions) {
    const raw = opts[key];
    if (typeof raw !== "string") continue;
    const checked = setting.check(raw, policy);
    if (checked.ok) values[setting.column] = checked.stored;
    else errors.push(checked.reason);
  }
  if (errors.length > 0) throw new CliError(errors.join("; "));
  return values;
}

/** "" → "none" (commander does not keep a null an option parser returns). */
function parseMonthlyBudget(value: string): string {
  const parsed = parseBudget(value);
  if (!parsed.ok) throw new InvalidArgumentError(BUDGET_RULE);
  return parsed.budgetUsd ?? "none";
}

function describeLimit(own: number | null, defaultLimit: number): string {
  const limit = own ?? defaultLimit;
  const text = limit === 0 ? "unlimited" : `${limit} requests a minute per key`;
  return own === null ? `${text} (the default, API_RATE_LIMIT_PER_MINUTE)` : text;
}
