/** Labelled form fields with their help and error text wired for assistive technology. */
import { html, type SafeHtml } from "./html.js";

export interface FieldProps {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "url" | "number" | "search";
  value?: string;
  error?: string | undefined;
  help?: string | SafeHtml;
  autocomplete?: string;
  required?: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
  autofocus?: boolean;
  textarea?: boolean;
}

export function field(p: FieldProps): SafeHtml {
  const id = `f-${p.name}`;
  const described = [p.help ? `${id}-help` : "", p.error ? `${id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  const attrs = html`id="${id}" name="${p.name}"${p.autocomplete ? html` autocomplete="${p.autocomplete}"` : ""}${
    p.required ? html` required` : ""
  }${p.placeholder ? html` placeholder="${p.placeholder}"` : ""}${
    described ? html` aria-describedby="${described}"` : ""
  }${p.error ? html` aria-invalid="true"` : ""}${p.autofocus ? html` autofocus` : ""}`;
  const control = p.textarea
    ? html`<textarea ${attrs}>${p.value ?? ""}</textarea>`
    : html`<input type="${p.type ?? "text"}" ${attrs} value="${p.value ?? ""}"${
        p.min !== undefined ? html` min="${p.min}"` : ""
      }${p.max !== undefined ? html` max="${p.max}"` : ""}>`;
  return html`<div class="field">
  <label for="${id}">${p.label}</label>
  ${control}
  ${p.help ? html`<div class="help" id="${id}-help">${p.help}</div>` : ""}
  ${p.error ? html`<div class="error-text" id="${id}-error">${p.error}</div>` : ""}
</div>`;
}
