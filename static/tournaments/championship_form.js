/* Enhancement only: the creation page hides the duplicate rules while the classic
   format is chosen (the server ignores them for a classic championship anyway). */
(function () {
  "use strict";
  var rules = document.getElementById("duplicate-rules");
  var radios = document.querySelectorAll("input[name=format]");
  if (!rules || !radios.length) { return; }
  function update() {
    var chosen = document.querySelector("input[name=format]:checked");
    rules.hidden = Boolean(chosen && chosen.value === "classic");
  }
  Array.prototype.forEach.call(radios, function (radio) {
    radio.addEventListener("change", update);
  });
  update();
})();
