/* Enhancement only: an action that cannot be undone works without it (the server
   refuses a POST whose "Ho confirmo" box is not ticked, or shows its confirmation
   step). With JavaScript, submitting a form with data-confirm asks once in a dialog: a
   "Ho confirmo" box left unticked is ticked on "OK"; "Cancel" sends nothing. Listened
   to on the document, so that forms a live fragment swaps in ask too. */
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.matches || !form.matches("form[data-confirm]")) { return; }
    var box = form.querySelector("input[name=confirm]");
    if (box && box.checked) { return; }
    if (window.confirm(form.dataset.confirm)) {
      if (box) { box.checked = true; }
    } else {
      event.preventDefault();
    }
  });
})();
