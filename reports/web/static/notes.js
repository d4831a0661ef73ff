// hh serve: the notes and tags form under a hand's heading in the replayer
// (POST /api/notes as JSON); the page is made again to show them.
"use strict";
(() => {
  const box = document.getElementById("hand-notes");
  const form = document.getElementById("hh-note-form");
  if (!box || !form) return;
  form.addEventListener("submit", async e => {
    e.preventDefault();
    const kind = e.submitter && e.submitter.value === "tag" ? "tag" : "note";
    const text = form.elements[kind === "tag" ? "tag" : "text"].value;
    const r = await fetch("/api/notes", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({subject: "hand", site: box.dataset.site, id: box.dataset.id, kind: kind, text: text})});
    if (r.ok) { location.reload(); return; }
    const out = await r.json().catch(() => null);
    document.getElementById("hh-note-error").textContent = (out && out.error) || ("HTTP " + r.status);
  });
})();
