/* Enhancement only: the result form works without it (the server checks everything).
   - recontro is enabled only after contro, Sant Vicenç only after recontro (docs/rules.md
     "Dealing, trump, doubling"), and Sant Vicenç only when the rules allow it;
   - the points EW took (72 minus NS's) are shown as NS's are typed;
   - with an infraction chosen, the points' label says they are optional and do not
     count, and the help saying what the pairs get shows (the server renders both the
     same way for the values it was sent). */
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
  var pointsLabel = document.getElementById("points-label");
  var infractionHelp = document.getElementById("points-infraction-help");

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
    if (pointsLabel && infractionHelp) {
      var side = form.querySelector("input[name=infraction]:checked");
      var infraction = side !== null && side.value !== "";
      pointsLabel.textContent = infraction ? pointsLabel.dataset.labelInfraction
        : pointsLabel.dataset.label;
      infractionHelp.hidden = !infraction;
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

/* The hand score of both sides as the referee types, by the server's own rule (the
   scorer's, asked at referee_checks.hand_score): never a second copy of the rule here. */
(function () {
  "use strict";
  var form = document.querySelector("form.result-form");
  var out = document.getElementById("live-score");
  if (!form || !out || !window.fetch) { return; }
  var timer = null;
  var asked = 0;
  /* An error the server already put next to its field is not said a second time. */
  function shown(text) {
    return Array.prototype.some.call(form.querySelectorAll(".errorlist li"), function (li) {
      return li.textContent.trim() === text.trim();
    });
  }
  /* ``quiet``: the first ask, on a form not touched yet: a blank form's "trump
     missing" is no error yet, so only a score is shown (an edited result's). */
  function ask(quiet) {
    var params = new URLSearchParams();
    ["trump", "ns_points_taken", "infraction"].forEach(function (name) {
      var field = form.querySelector("[name=" + name + "]:checked") ||
        form.querySelector("input[name=" + name + "]:not([type=radio])");
      if (field && field.value) { params.set(name, field.value); }
    });
    ["delegated", "contro", "recontro", "sant_vicenc"].forEach(function (name) {
      var box = form.querySelector("input[name=" + name + "]");
      if (box && box.checked) { params.set(name, "1"); }
    });
    var mine = ++asked;
    fetch(out.dataset.url + "?" + params.toString(), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (score) {
        if (mine !== asked || !score) { return; }
        out.hidden = false;
        if (score.ns !== null && score.ns !== undefined) {
          var sign = function (v) { return v > 0 ? "+" + v : String(v); };
          out.classList.remove("error");
          out.textContent = out.dataset.nsLabel + " " + sign(score.ns) + " · " +
            out.dataset.ewLabel + " " + sign(score.ew);
        } else if (score.error && !quiet && !shown(score.error)) {
          out.classList.add("error");
          out.textContent = score.error;
        } else {
          out.hidden = true;
        }
      })
      .catch(function () { /* offline: the server still checks on saving */ });
  }
  function later() { clearTimeout(timer); timer = setTimeout(function () { ask(false); }, 150); }
  form.addEventListener("change", later);
  form.addEventListener("input", later);
  ask(true);
})();
