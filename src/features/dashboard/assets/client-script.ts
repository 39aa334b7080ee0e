/**
 * The dashboard's only client script: copy-to-clipboard buttons, confirmation prompts on
 * destructive forms, and a tab strip wider than the screen scrolled so the current tab is in
 * view. Everything works without it (the key stays selectable, forms still post, the strip
 * scrolls by hand).
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
function showCurrentTabs() {
  Array.prototype.forEach.call(document.querySelectorAll(".subnav, .mainnav"), function (strip) {
    var current = strip.querySelector('[aria-current="page"]');
    if (!current || strip.scrollWidth <= strip.clientWidth) return;
    var s = strip.getBoundingClientRect();
    var c = current.getBoundingClientRect();
    if (c.left >= s.left && c.right <= s.right) return;
    strip.scrollLeft += c.left - s.left - (s.width - c.width) / 2;
  });
}
showCurrentTabs();
window.addEventListener("resize", showCurrentTabs);
document.documentElement.classList.add("js");
`;
