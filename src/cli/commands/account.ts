import { type Command, Option } from "commander";
import { loadConfig } from "../../config.js";
import { changeAlertSettings } from "../../features/accounts/change-alert-settings.js";
import { createAccount } from "../../features/accounts/create-account.js";
import { getAccount } from "../../features/accounts/get-account.js";
import { hashPassword } from "../../features/accounts/password.js";
import { MIN_PASSWORD_LENGTH, passwordProblem } from "../../features/accounts/password-rule.js";
import { DEFAULT_VIP_THRESHOLD } from "../../features/accounts/settings/vip-threshold.js";
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
import { checkEmail } from "../../features/orders/email-address.js";
import { INVITATION_TTL_MS } from "../../features/team/invite-member.js";
import { issueResetLink } from "../../features/team/password-reset.js";
import { commandActor } from "../cli-actor.js";
import { linkBaseNote } from "../link-base.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { addSettingFlags, settingLines, settingValue } from "../setting-flags.js";
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
    .option("--threshold <0-100>", `VIP threshold (default ${DEFAULT_VIP_THRESHOLD})`, (text) =>
      settingValue("vipThreshold", text),
    )
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
    .requiredOption("--account <id>", "the account id", parseId);
  // Every declared setting's flag (features/accounts/settings), then each alert channel's
  // settings, as the channel declares them (alerts/channels/).
  const givenSettings = addSettingFlags(set);
  const channelOptions = CHANNEL_SETTINGS.map((setting) => {
    const option = new Option(setting.cli.flags, setting.cli.help);
    set.addOption(option);
    return { setting, key: option.attributeName() };
  });
  set
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; json?: boolean }) => {
      const { view, config, channelLines } = await withDeps(async (deps) => {
        const channels = readChannelOptions(channelOptions, set.opts(), {
          allowPrivate: deps.config.alerts.allowPrivateWebhooks,
        });
        const current = await getAccount(deps, opts.account);
        if (!current) throw new CliError(`No account ${opts.account}`);
        if (current.closedAt !== null) throw new CliError(`Account ${opts.account} is closed`);
        await changeAlertSettings(deps, {
          accountId: opts.account,
          settings: { ...givenSettings(opts), channels },
          actor: commandActor(),
        });
        const account = await getAccount(deps, opts.account);
        if (!account) throw new CliError(`No account ${opts.account}`);
        // Addresses added on the dashboard get no alert until their owner confirms them.
        const { awaiting } = await alertEmailStates(
          deps.db.kysely,
          opts.account,
          account.alertEmails,
        );
        const channelLines = await describeChannelSettings(
          deps.db.kysely,
          opts.account,
          deps.config.storeSync.tokenKey,
        );
        return {
          view: { ...account, alertEmailsAwaitingConfirmation: awaiting },
          config: deps.config,
          channelLines,
        };
      });
      const settings = settingLines(opts.account, view, config);
      printResult(Boolean(opts.json), view, () =>
        [...settings.alerts, ...channelLines, ...settings.others].join("\n"),
      );
    });

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
    if (checked.ok) values[setting.key] = checked.stored;
    else errors.push(checked.reason);
  }
  if (errors.length > 0) throw new CliError(errors.join("; "));
  return values;
}
