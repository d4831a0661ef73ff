"use strict";
// hh replayer: draws one explained hand (the JSON above, from reports.show.explain)
// and steps through it. Every untrusted string (names, chat, table) goes in
// through textContent or setAttribute, never innerHTML.
(function () {
  const DATA = JSON.parse(document.getElementById("hh-data").textContent);
  const rows = DATA.rows, meta = DATA.meta;
  const SETUP = new Set(["table", "seat", "house_rules", "commitment"]);
  const steps = [];
  rows.forEach((r, i) => { if (!SETUP.has(r.kind) || r.faults.length) steps.push(i); });
  let at = 0;
  // a fault with "follows" only follows from an earlier line's fault: shown subdued
  const isRoot = f => f.follows === undefined;
  const roots = r => r.faults.filter(isRoot).length;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const SVG = "http://www.w3.org/2000/svg";
  function svg(parts) {
    const s = document.createElementNS(SVG, "svg");
    s.setAttribute("viewBox", "0 0 20 20");
    for (const [tag, attrs] of parts) {
      const p = document.createElementNS(SVG, tag);
      for (const k in attrs) p.setAttribute(k, attrs[k]);
      s.appendChild(p);
    }
    return s;
  }
  // the four Spanish suits, drawn: a gold coin, a red cup, a blue sword, a green club
  const SPANISH = {
    o: ["oros", () => svg([["circle", {cx: 10, cy: 10, r: 8.5, fill: "#e8b400", stroke: "#8a6500", "stroke-width": 1.5}],
                           ["circle", {cx: 10, cy: 10, r: 4, fill: "none", stroke: "#8a6500", "stroke-width": 1.5}]])],
    c: ["copas", () => svg([["path", {d: "M3.5 2.5 H16.5 Q16.5 11 10 12 Q3.5 11 3.5 2.5 Z", fill: "#c62828"}],
                            ["rect", {x: 9, y: 11.5, width: 2, height: 4.5, fill: "#c62828"}],
                            ["ellipse", {cx: 10, cy: 17.3, rx: 5, ry: 1.8, fill: "#c62828"}]])],
    e: ["espadas", () => svg([["line", {x1: 10, y1: 1, x2: 10, y2: 13, stroke: "#1f5fbf", "stroke-width": 2.6}],
                              ["line", {x1: 4.5, y1: 13, x2: 15.5, y2: 13, stroke: "#1f5fbf", "stroke-width": 2.2}],
                              ["line", {x1: 10, y1: 13, x2: 10, y2: 18, stroke: "#7a4a1c", "stroke-width": 2.6}],
                              ["circle", {cx: 10, cy: 18.5, r: 1.4, fill: "#1f5fbf"}]])],
    b: ["bastos", () => svg([["line", {x1: 6, y1: 18, x2: 14, y2: 3, stroke: "#2e7d32", "stroke-width": 4, "stroke-linecap": "round"}],
                             ["circle", {cx: 14, cy: 3.5, r: 3, fill: "#2e7d32"}],
                             ["circle", {cx: 9.5, cy: 11, r: 1.6, fill: "#a5d6a7"}]])],
  };
  const FRENCH = {c: ["\u2663", "clubs"], d: ["\u2666", "diamonds"], h: ["\u2665", "hearts"], s: ["\u2660", "spades"]};
  const SP_RANK = {S: "Sota", C: "Caballo", R: "Rey", A: "As"};

  function card(code, extra) {
    const c = el("div", ("card " + (extra || "")).trim());
    if (code === "??") { c.className += " back"; c.title = "face down"; return c; }
    if (code === "Jk") {  // the wild card: a star, named below it as the Spanish suits are
      c.className += " joker";
      c.appendChild(el("span", "st", "\u2605"));
      c.appendChild(el("span", "lbl", "joker"));
      c.title = "joker (wild)";
      return c;
    }
    const rank = code.slice(0, -1), suit = code.slice(-1);
    if (meta.deck === "spanish" && SPANISH[suit]) {
      const [name, draw] = SPANISH[suit];
      c.appendChild(el("span", "rk", rank));
      c.appendChild(draw());
      c.appendChild(el("span", "lbl", name));
      c.title = (SP_RANK[rank] || rank) + " de " + name;
      c.setAttribute("data-suit", name);
    } else if (FRENCH[suit]) {
      c.className += " s-" + suit;
      c.appendChild(el("span", "rk", rank === "T" ? "10" : rank));
      c.appendChild(el("span", "st", FRENCH[suit][0]));
      c.title = rank + " of " + FRENCH[suit][1];
    } else {
      c.textContent = code;
    }
    return c;
  }

  // -- the static parts: heading, text, seats
  const head = document.getElementById("head");
  head.appendChild(el("span", "title",
    (meta.site ? meta.site + " " : "") + "#" + meta.hand_id + " \u00b7 " + meta.game_label));
  head.appendChild(el("span", "sub", "Table '" + meta.table + "' \u00b7 " + meta.max_seats +
    "-max \u00b7 " + meta.date + (meta.file ? " \u00b7 " + meta.file + ":" + meta.line : "")));
  const nv = meta.violations.length;
  const nf = meta.violations.filter(v => v.follows !== undefined).length;
  head.appendChild(el("span", "badge " + (meta.valid ? "ok" : "bad"),
    meta.valid ? "VALID" : "INVALID: " + nv + " violation" + (nv === 1 ? "" : "s") +
      (nf ? " (" + nf + " follow" + (nf === 1 ? "s" : "") + " from earlier ones)" : "")));
  if (meta.unchecked.length) head.appendChild(el("span", "badge warn", meta.unchecked.length + " unchecked (hero view)"));

  const text = document.getElementById("text");
  // the gutter as wide as the longest line number (digits), at least 3.2em
  const digits = Math.max(...rows.map(r => String(r.line).length), 1);
  text.style.setProperty("--gutter", "max(3.2em, " + (digits + 1) + "ch)");
  const lis = rows.map((r, i) => {
    const li = el("li", roots(r) ? "bad" : (r.faults.length ? "bad after" : ""));
    li.appendChild(el("span", "no", r.line));
    li.appendChild(el("span", "tx", r.text));
    li.addEventListener("click", () => { go(stepAtOrBefore(i)); });
    text.appendChild(li);
    return li;
  });

  const table = document.getElementById("table");
  const seatEls = {}, betEls = {};
  const bySeat = {};
  meta.seats.forEach(s => { bySeat[s.seat] = s; });
  function place(k, f) {
    const a = Math.PI / 2 + (k - 1) * 2 * Math.PI / meta.max_seats;
    return [50 + 50 * f * Math.cos(a), 50 + 50 * f * Math.sin(a)];
  }
  for (let k = 1; k <= meta.max_seats; k++) {
    const s = bySeat[k];
    const [x, y] = place(k, 1.0);
    const box = el("div", s ? "seat" : "seat empty");
    box.style.left = x + "%"; box.style.top = y + "%";
    if (!s) { box.textContent = "seat " + k; table.appendChild(box); continue; }
    box.setAttribute("data-name", s.name);
    box.setAttribute("data-seat", String(k));
    box.appendChild(el("span", "name", s.name));
    box.appendChild(el("span", "stack", s.chips));
    box.appendChild(el("div", "tag", "seat " + k + (s.sitting_out ? " \u00b7 sitting out" : "")));
    box.appendChild(el("div", "cards"));
    if (meta.dealer === k) box.appendChild(el("div", "dealer", "D"));
    table.appendChild(box);
    seatEls[s.name] = box;
    const [bx, by] = place(k, 0.55);
    const bet = el("div", "bet");
    bet.style.left = bx + "%"; bet.style.top = by + "%";
    bet.setAttribute("data-name", s.name);
    table.appendChild(bet);
    betEls[s.name] = bet;
  }

  function stepAtOrBefore(i) {
    let best = 0;
    steps.forEach((r, k) => { if (r <= i) best = k; });
    return best;
  }

  // -- one step drawn
  function draw() {
    const i = steps[at], r = rows[i];
    lis.forEach((li, k) => {
      li.classList.toggle("cur", k === i);
      li.classList.toggle("past", k < i);
      li.classList.toggle("future", k > i);
    });
    lis[i].scrollIntoView({block: "nearest"});
    const folded = new Set(r.folded), allIn = new Set(r.all_in), mucked = new Set(r.mucked);
    const used = {};  // the five cards each shown hand plays, once shown
    for (let k = 0; k <= i; k++) {
      const s = rows[k].show;
      if (s && s.used) used[s.player] = new Set(s.used);
    }
    for (const name in seatEls) {
      const box = seatEls[name];
      const sitting = !(name in r.stacks);
      box.querySelector(".stack").textContent = sitting ? bySeatName(name).chips : r.stacks[name];
      box.classList.toggle("folded", folded.has(name) || sitting);
      box.classList.toggle("allin", allIn.has(name));
      box.classList.toggle("turn", r.to_act === name);
      box.classList.toggle("acting", r.player === name && r.kind === "action");
      box.classList.toggle("culprit", r.player === name && roots(r) > 0);
      const cards = box.querySelector(".cards");
      cards.textContent = "";
      const c = r.cards[name];
      if (c) {
        const m = mucked.has(name) ? " mucked" : "";
        const u = x => (used[name] && used[name].has(x) ? " used" : "");
        c.down.forEach(x => cards.appendChild(card(x, (x === "??" ? "" : "down") + m + u(x))));
        c.up.forEach(x => cards.appendChild(card(x, m + u(x))));
      }
      // from the summary on the chips are in the pot: nothing in front
      const bet = betEls[name], amount = r.payouts === null ? (r.bets[name] || 0) : 0;
      bet.textContent = "";
      if (amount) { bet.appendChild(el("span", "chip")); bet.appendChild(el("span", "amt", amount)); }
    }
    const board = document.getElementById("board");
    board.textContent = "";
    r.board.forEach(x => board.appendChild(card(x)));
    meta.centre.forEach(x => board.appendChild(card(x)));  // the shared joker: every hand's wild card
    document.getElementById("street").textContent = r.street || "before the deal";
    document.getElementById("pot-amount").textContent = r.pot;
    const paid = document.getElementById("paid");
    paid.textContent = r.payouts ? "paid: " + Object.entries(r.payouts).map(([n, v]) => n + " " + v).join(", ") : "";
    table.classList.toggle("flag", roots(r) > 0);
    explainLine(r);
    document.getElementById("pos").textContent = "step " + (at + 1) + " / " + steps.length + " \u00b7 line " + r.line;
    document.getElementById("prev").disabled = at === 0;
    document.getElementById("first").disabled = at === 0;
    document.getElementById("next").disabled = at === steps.length - 1;
    document.getElementById("last").disabled = at === steps.length - 1;
  }
  function bySeatName(name) { return meta.seats.find(s => s.name === name); }

  function explainLine(r) {
    const box = document.getElementById("explain");
    box.textContent = "";
    box.appendChild(el("div", "line", r.line + ": " + r.text));
    r.faults.forEach(f => {
      const after = !isRoot(f);
      const d = el("div", after ? "fault after" : "fault");
      d.appendChild(el("b", null, (after ? "\u21b3 " : "\u2717 ") + f.code + " "));
      d.appendChild(el("span", null, f.message));
      if (after) {
        d.appendChild(el("span", "why", " \u2014 follows from "));
        d.appendChild(lineLink(f.follows));
      } else if (f.consequences && f.consequences.length) {
        const n = f.consequences.length;
        const c = el("div", "later", n + " later violation" + (n === 1 ? " follows" : "s follow") +
          " from this line: ");
        f.consequences.forEach((ln, k) => { if (k) c.appendChild(document.createTextNode(", ")); c.appendChild(lineLink(ln)); });
        d.appendChild(c);
      }
      box.appendChild(d);
    });
    r.disputes.forEach(x => {
      const d = el("div", "dispute");
      const a = el("div", "log"); a.appendChild(el("b", null, "the log says")); a.appendChild(el("span", null, x.log));
      const b = el("div", "rules"); b.appendChild(el("b", null, "the rules give")); b.appendChild(el("span", null, x.rules));
      d.appendChild(a); d.appendChild(b); box.appendChild(d);
    });
    r.unchecked.forEach(u => box.appendChild(el("div", "unchecked", "? " + u.code + " (could not be checked): " + u.message)));
    if (r.notes.length) {
      const ul = el("ul");
      r.notes.forEach(n => ul.appendChild(el("li", null, n)));
      box.appendChild(ul);
    }
  }

  // a link to another line of the hand: a click steps there
  function lineLink(n) {
    const a = el("button", "goto", "line " + n);
    a.setAttribute("data-line", String(n));
    a.addEventListener("click", () => {
      const i = rows.findIndex(x => x.line === n);
      if (i >= 0) go(stepAtOrBefore(i));
    });
    return a;
  }

  function go(k) { at = Math.max(0, Math.min(steps.length - 1, k)); draw(); }
  const firstBad = steps.findIndex(i => roots(rows[i]) > 0);
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(at - 1));
  document.getElementById("next").addEventListener("click", () => go(at + 1));
  document.getElementById("last").addEventListener("click", () => go(steps.length - 1));
  const vb = document.getElementById("violation");
  if (firstBad < 0) { vb.disabled = true; vb.textContent = "No violation"; }
  vb.addEventListener("click", () => { if (firstBad >= 0) go(firstBad); });
  document.addEventListener("keydown", e => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") { go(at + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") { go(at - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(steps.length - 1); e.preventDefault(); }
    else if (e.key === "v" && firstBad >= 0) { go(firstBad); }
  });
  document.title = "hh \u00b7 #" + meta.hand_id + (meta.valid ? "" : " \u00b7 INVALID");
  window.hhReplayer = {steps: steps.length, go: go, at: () => at};
  go(0);
})();
