/* Enhancement only: an action that cannot be undone works without it (the server
   refuses a POST whose "Ho confirmo" box is not ticked). With JavaScript, submitting a
   form with data-confirm asks once in a dialog: a "Ho confirmo" box left unticked is
   ticked on "OK"; "Cancel" sends nothing. */
(function () {
  "use strict";
  var forms = document.querySelectorAll("form[data-confirm]");
  Array.prototype.forEach.call(forms, function (form) {
    var box = form.querySelector("input[name=confirm]");
    form.addEventListener("submit", function (event) {
      if (box && box.checked) { return; }
      if (window.confirm(form.dataset.confirm)) {
        if (box) { box.checked = true; }
      } else {
        event.preventDefault();
      }
    });
  });
})();
