/**
 * The dashboard's only client script: copy-to-clipboard buttons and confirmation prompts on
 * destructive forms. Everything works without it (the key stays selectable, forms still post).
 */
export const CLIENT_SCRIPT = `"use strict";
document.addEventListener("click", function (event) {
  var button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    var label = button.textContent;
    button.textContent = "Copied";
    button.setAttribute("aria-live", "polite");
    setTimeout(function () { button.textContent = label; }, 2000);
  });
});
document.addEventListener("submit", function (event) {
  var form = event.target;
  var message = form instanceof HTMLFormElement ? form.getAttribute("data-confirm") : null;
  if (message && !window.confirm(message)) event.preventDefault();
});
document.documentElement.classList.add("js");
`;
