/* Enhancement only: the result form works without it (the server checks everything).
   - recontro is enabled only after contro, Sant Vicenç only after recontro (docs/rules.md
     "Dealing, trump, doubling"), and Sant Vicenç only when the rules allow it;
   - the points EW took (72 minus NS's) are shown as NS's are typed. */
(function () {
  "use strict";
  var form = document.querySelector("form.result-form");
  if (!form) { return; }
  var svAllowed = form.dataset.santVicenc === "1";
  var svOnBotifarra = form.dataset.santVicencOnBotifarra === "1";
  var contro = form.querySelector("input[name=contro]");
  var recontro = form.querySelector("input[name=recontro]");
  var sv = form.querySelector("input[name=sant_vicenc]");
  var ns = form.querySelector("input[name=ns_points_taken]");
  var ew = form.querySelector("[data-ew-points]");

  function trump() {
    var checked = form.querySelector("input[name=trump]:checked");
    return checked ? checked.value : "";
  }
  function sync() {
    if (contro && recontro) {
      recontro.disabled = !contro.checked;
      if (recontro.disabled) { recontro.checked = false; }
    }
    if (recontro && sv) {
      var allowed = svAllowed && (svOnBotifarra || trump() !== "botifarra");
      sv.disabled = !(recontro.checked && allowed);
      if (sv.disabled) { sv.checked = false; }
    }
    if (ns && ew) {
      var value = parseInt(ns.value, 10);
      ew.textContent = (ns.value !== "" && value >= 0 && value <= 72) ? String(72 - value) : "–";
    }
  }
  form.addEventListener("change", sync);
  form.addEventListener("input", sync);
  sync();
})();
