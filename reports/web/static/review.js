// hh serve: the reviewer's form of each case on the integrity page
// (POST /api/review as JSON: the two players, the game, the mark, a note);
// the page is made again to show the mark.
"use strict";
(() => {
  for (const form of document.querySelectorAll("form.review")) {
    form.addEventListener("submit", async e => {
      e.preventDefault();
      const out = form.querySelector(".err");
      out.textContent = "";
      const body = {players: [form.dataset.a, form.dataset.b], game: form.dataset.game,
        mark: form.elements.mark.value, note: form.elements.note.value};
      const r = await fetch("/api/review", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      if (r.ok) { location.reload(); return; }
      const found = await r.json().catch(() => null);
      out.textContent = (found && found.error) || ("HTTP " + r.status);
    });
  }
})();
