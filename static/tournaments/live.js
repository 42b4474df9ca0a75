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

  /* Case and accents ignored, as the server's search (selectors.names.fold). */
  function fold(text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/\s+/g, " ").trim();
  }

  function highlight(query, scroll) {
    var rows = document.querySelectorAll("#standings tbody tr[data-pair]");
    var text = fold(query);
    var found = null;
    rows.forEach(function (row) {
      var hit = false;
      if (text) {
        /* Every word of the query somewhere in the names, in any order, as the
           server's search (selectors.standings.PairName.matches). */
        var names = fold(row.dataset.names);
        hit = /^\d+$/.test(text) ? row.dataset.pair === text.replace(/^0+/, "")
          : text.split(" ").every(function (word) { return names.indexOf(word) !== -1; });
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
    input.value = input.value || stored();
    highlight(input.value, false);
    input.addEventListener("input", function () {
      var found = highlight(input.value, true);
      store(found ? input.value.trim() : "");
    });
    /* A row found on this page: no need to ask the server (the form's GET "find" lists
       the pairs found, for a phone without JavaScript or a pair not on the page). */
    finder.addEventListener("submit", function (event) {
      if (highlight(input.value, true)) { event.preventDefault(); }
    });
  }

  /* The hall screen (a projector: nobody scrolls it): each table -- the standings and the
     latest complete board -- shows one screenful of its rows at a time, next every 8 s.
     The rows per page are estimated, then lowered until the table's section ends above
     the bottom of the screen. */
  var page = 0;
  function pageTable(table, label) {
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    rows.forEach(function (r) { r.hidden = false; });
    var first = rows[0];
    if (!first) { return 1; }
    var section = table.closest("section") || table.parentNode;
    var main = document.querySelector("body.hall main");
    var bottom = window.innerHeight - (main ? parseFloat(getComputedStyle(main).paddingBottom) || 0 : 0);
    var top = first.getBoundingClientRect().top;
    var per = Math.max(1, Math.floor((bottom - top - 24) / Math.max(1, first.offsetHeight)));
    var pages, mine;
    function show() {
      pages = Math.max(1, Math.ceil(rows.length / per));
      mine = page % pages;
      rows.forEach(function (r, i) { r.hidden = Math.floor(i / per) !== mine; });
      if (label) { label.textContent = pages > 1 ? (mine + 1) + " / " + pages : ""; }
    }
    show();
    while (per > 1 && section.getBoundingClientRect().bottom > bottom) { per -= 1; show(); }
    return pages;
  }
  function pageHall() {
    if (!document.body.classList.contains("hall")) { return; }
    [["#standings", ".hall-standings .hall-page"], ["#hall-latest", ".hall-board .hall-page"],
     ["#hall-playing", ".hall-board .hall-page"]]
      .forEach(function (pair) {
        var table = document.querySelector("body.hall " + pair[0]);
        if (table) { pageTable(table, document.querySelector("body.hall " + pair[1])); }
      });
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
