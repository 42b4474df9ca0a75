/* Enhancement only: an action that cannot be undone works without it (the server
   refuses a POST whose "Ho confirmo" box is not ticked). With JavaScript, pressing the
   button with the box unticked asks once in a dialog and ticks it on "OK". */
(function () {
  "use strict";
  var form = document.getElementById("confirm-form");
  if (!form) { return; }
  var box = form.querySelector("input[name=confirm]");
  form.addEventListener("submit", function (event) {
    if (!box || box.checked) { return; }
    if (window.confirm(form.dataset.confirm)) {
      box.checked = true;
    } else {
      event.preventDefault();
    }
  });
})();
