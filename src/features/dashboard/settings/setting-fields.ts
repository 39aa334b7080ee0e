/**
 * The settings' fields on the dashboard, built from their declarations
 * (accounts/settings/account-settings.ts): the control for each kind of input, a panel per
 * setting, what a submitted form says and the sentences under refused fields. A field is
 * offered to those whose role may change its setting; others see its value. A page may put
 * content of its own in a setting's panel, above its field (a lead: the budget's bar).
 */
import type {
  SettingForm,
  SettingInput,
  SettingsPage,
} from "../../accounts/settings/account-setting.js";
import {
  type AccountSettingKey,
  type AccountSettingValues,
  SETTING_KEYS,
  settingOf,
} from "../../accounts/settings/account-settings.js";
import { atLeast, ROLES, type UserRole } from "../../team/roles.js";
import { type FieldProps, field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";

/** Settings as typed, by key: what a form carried, or the saved values written back. */
export type SettingTexts = Partial<Record<AccountSettingKey, string>>;
export type SettingErrors = Partial<Record<AccountSettingKey, string>>;
/** A page's own content in a setting's panel, above its field or value, by key. */
export type SettingLeads = Partial<Record<AccountSettingKey, SafeHtml>>;

type Control = Pick<FieldProps, "type" | "min" | "max" | "placeholder" | "autocomplete">;

/** Every kind of input, as a control: a kind left out here is a type error. */
const CONTROLS: {
  [K in SettingInput["kind"]]: (input: Extract<SettingInput, { kind: K }>) => Control;
} = {
  number: (input) => ({ type: "number", min: input.min, max: input.max }),
  text: (input) => ({ placeholder: input.placeholder, autocomplete: input.autocomplete }),
};

function controlOf(input: SettingInput): Control {
  return (CONTROLS[input.kind] as (i: SettingInput) => Control)(input);
}

/** The settings a page shows, in their declared order. */
export function pageSettings(page: SettingsPage): { key: AccountSettingKey; form: SettingForm }[] {
  return SETTING_KEYS.flatMap((key) => {
    const form = settingOf(key).form;
    return form?.page === page ? [{ key, form }] : [];
  });
}

export function mayChange(role: UserRole, key: AccountSettingKey): boolean {
  return atLeast(role, settingOf(key).role);
}

/**
 * The lowest role that may change any of the page's settings: who may post its form (a role
 * below it may change none of them). Null: the page has no settings.
 */
export function pageRole(page: SettingsPage): UserRole | null {
  const roles = new Set(pageSettings(page).map(({ key }) => settingOf(key).role));
  return [...ROLES].reverse().find((role) => roles.has(role)) ?? null;
}

/** One setting's field, as its declaration describes it. */
export function settingField(
  form: SettingForm,
  value: string,
  error: string | undefined,
): SafeHtml {
  return field({
    name: form.name,
    label: form.label,
    value,
    error,
    help: form.help,
    required: form.required,
    ...controlOf(form.input),
  });
}

/**
 * Each setting of the page in its own panel: the page's lead for it if any, then its field, or
 * its value for those who may not change it.
 */
export function settingPanels(
  page: SettingsPage,
  texts: SettingTexts,
  errors: SettingErrors,
  role: UserRole,
  leads: SettingLeads = {},
): SafeHtml {
  const panels = pageSettings(page).map(({ key, form }) => {
    const text = texts[key] ?? "";
    const own = leads[key];
    const lead = own
      ? html`${own}
  `
      : "";
    const body = mayChange(role, key)
      ? settingField(form, text, errors[key])
      : html`<p>${form.label}: ${text || "none"}</p>
  <p class="muted small">Only the account's ${settingOf(key).role}s can change this.</p>`;
    return html`<section class="panel" aria-labelledby="${form.name}-title">
  <h2 id="${form.name}-title">${form.title}</h2>
  ${lead}${body}
</section>`;
  });
  return panels.reduce(
    (all, panel, i) =>
      i === 0
        ? panel
        : html`${all}
${panel}`,
    html``,
  );
}

/** The saved values as the page's fields show them. */
export function savedSettingTexts(page: SettingsPage, values: AccountSettingValues): SettingTexts {
  const texts: SettingTexts = {};
  for (const { key } of pageSettings(page)) texts[key] = settingOf(key).text(values[key]);
  return texts;
}

/**
 * What a submitted form says about the page's settings the role may change: a required field
 * is read even when missing (and refused), another one only when the form carries it.
 */
export function submittedSettingTexts(
  body: unknown,
  page: SettingsPage,
  role: UserRole,
): SettingTexts {
  const form = body instanceof URLSearchParams ? body : new URLSearchParams();
  const texts: SettingTexts = {};
  for (const { key, form: f } of pageSettings(page)) {
    if (!mayChange(role, key)) continue;
    if (f.required || form.has(f.name)) texts[key] = form.get(f.name) ?? "";
  }
  return texts;
}

/** The sentence under a refused field. */
export function fieldError(key: AccountSettingKey, problem: string): string {
  const custom = settingOf(key).form?.error;
  if (custom) return custom(problem);
  const sentence = problem.charAt(0).toUpperCase() + problem.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The typed settings checked by their declarations: the values, or why each was refused. */
export function readSettingTexts(texts: SettingTexts): {
  values: Partial<AccountSettingValues>;
  errors: SettingErrors;
} {
  const values: Record<string, unknown> = {};
  const errors: SettingErrors = {};
  for (const key of SETTING_KEYS) {
    const text = texts[key];
    if (text === undefined) continue;
    const parsed = settingOf(key).parse(text);
    if (parsed.ok) values[key] = parsed.value;
    else errors[key] = fieldError(key, parsed.problem);
  }
  return { values: values as Partial<AccountSettingValues>, errors };
}
