/* Live pages: the round selector, "find my pair" (remembered on this phone) and the hall
   screen's paging. htmx (loaded before this file) polls and swaps the fragments; this file
   only reapplies the reader's choices after each swap. No framework. */
(function () {
  "use strict";

  var scope = document.querySelector("select[data-autosubmit]");
  if (scope) {
    scope.addEventListener("change", function () {
      window.location.search = scope.value ? "?" + scope.value : "";
    });
  }

  var finder = document.getElementById("find-pair");
  var input = document.getElementById("find-pair-input");
  var key = finder ? "botifarra-pair:" + finder.dataset.slug : null;

  function store(value) {
    try { if (value) { localStorage.setItem(key, value); } else { localStorage.removeItem(key); } }
    catch (e) { /* private mode: not remembered */ }
  }
  function stored() {
    try { return localStorage.getItem(key) || ""; } catch (e) { return ""; }
  }

  function highlight(query, scroll) {
    var rows = document.querySelectorAll("#standings tbody tr[data-pair]");
    var text = (query || "").trim().toLowerCase();
    var found = null;
    rows.forEach(function (row) {
      var hit = false;
      if (text) {
        hit = /^\d+$/.test(text) ? row.dataset.pair === text
          : (row.dataset.names || "").indexOf(text) !== -1;
      }
      if (hit && !found) { found = row; }
      row.classList.toggle("me", hit && row === found);
      if (hit && row === found) { row.setAttribute("aria-current", "true"); }
      else { row.removeAttribute("aria-current"); }
    });
    if (found && scroll) { found.scrollIntoView({block: "center", behavior: "smooth"}); }
    return found;
  }

  if (input) {
    input.value = stored();
    highlight(input.value, false);
    input.addEventListener("input", function () {
      var found = highlight(input.value, true);
      store(found ? input.value.trim() : "");
    });
  }

  /* The hall screen: show one screenful of the standings at a time, next every 8 s. */
  var page = 0;
  function pageHall() {
    var table = document.querySelector("body.hall #standings");
    if (!table) { return; }
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    rows.forEach(function (r) { r.hidden = false; });
    var first = rows[0];
    if (!first) { return; }
    var top = first.getBoundingClientRect().top;
    var per = Math.max(5, Math.floor((window.innerHeight - top - 24) / first.offsetHeight));
    var pages = Math.max(1, Math.ceil(rows.length / per));
    if (page >= pages) { page = 0; }
    rows.forEach(function (r, i) { r.hidden = Math.floor(i / per) !== page; });
    var label = document.querySelector("body.hall .hall-page");
    if (label) { label.textContent = pages > 1 ? (page + 1) + " / " + pages : ""; }
    return pages;
  }
  if (document.body.classList.contains("hall")) {
    pageHall();
    window.addEventListener("resize", pageHall);
    setInterval(function () { page += 1; pageHall(); }, 8000);
  }

  document.body.addEventListener("htmx:afterSettle", function () {
    if (input) { highlight(input.value, false); }
    pageHall();
  });
})();
