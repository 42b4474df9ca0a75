// The prints page: each job still running is polled until it ends; its progress, state
// and download link are updated in place. A static file, not an inline script: the
// Content-Security-Policy allows scripts from the site only.
(function () {
  "use strict";
  var table = document.querySelector("table.print-jobs");
  var label = table ? table.dataset.downloadLabel : "";
  function poll(row) {
    fetch(row.dataset.statusUrl, {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (job) {
        row.querySelector("progress").value = job.progress;
        row.querySelector(".job-progress").textContent = job.progress + "%";
        var badge = row.querySelector(".job-status .badge");
        badge.textContent = job.status_display;
        if (job.status === "done" && job.download) {
          badge.classList.add("done");
          var link = document.createElement("a");
          link.className = "btn";
          link.href = job.download;
          link.textContent = label;
          row.querySelector(".job-download").replaceChildren(link);
        } else if (job.status === "failed") {
          var err = document.createElement("div");
          err.className = "error job-error";
          err.textContent = job.error;
          row.querySelector(".job-status").appendChild(err);
        } else {
          setTimeout(function () { poll(row); }, 700);
        }
      })
      .catch(function () { setTimeout(function () { poll(row); }, 3000); });
  }
  document.querySelectorAll("tr[data-active='1']").forEach(poll);
})();
