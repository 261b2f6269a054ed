/* The Biriba page: the Analyze tab (see app.js for the element ids). */
"use strict";

// ================================================================== Analyze
const analyzer = {
  hand: [],
  pile: [],
  table: {},              // team -> list of melds, each a list of card texts
  target: "hand",         // "hand", "pile" or "table-<team>-<index>"
  kept: { options: [], packets_taken: [] },   // keys the form does not edit, kept so a
};                                             // loaded position goes back to the server whole

function analyzerPlayers() { return Number($("players").value); }
function analyzerSeconds() { return Number($("seconds").value) || HINT_SECONDS; }
function analyzerTeams() { return teamCount(analyzerPlayers(), analyzer.kept.options); }

function targetCards(target) {
  if (target === "hand" || target === "pile") return analyzer[target];
  const [, team, index] = target.split("-");
  return analyzer.table[team][index];
}

function setTargetCards(target, cards) {
  const list = targetCards(target);
  list.splice(0, list.length, ...cards);
}

const textIdOf = (target) => target.startsWith("table-")
  ? "table-text-" + target.slice("table-".length) : target + "-text";

/** Redraw one target's chips (each removes its card) and, unless typing there, its text. */
function renderTarget(target, keepText = false) {
  const box = $("target-" + target);
  if (!box) return;
  const cards = targetCards(target);
  box.querySelector(".chips").replaceChildren(...cards.map((card, i) => cardChip(card, {
    title: card + ": click to remove",
    onClick: (event) => {
      event.stopPropagation();
      cards.splice(i, 1);
      renderTarget(target);
      positionChanged();
    },
  })));
  if (!keepText) $(textIdOf(target)).value = cards.join(" ");
}

function selectTarget(target) {
  analyzer.target = target;
  for (const box of document.querySelectorAll(".target")) {
    box.classList.toggle("selected", box.dataset.target === target);
  }
}

/** A target box: select on click, its text field rewrites its cards as typed. */
function wireTarget(target) {
  $("target-" + target).addEventListener("click", () => selectTarget(target));
  $(textIdOf(target)).addEventListener("input", (event) => {
    setTargetCards(target, parseCards(event.target.value));
    renderTarget(target, true);
    positionChanged();
  });
}

/** The teams' table melds, one box per meld; rebuilt when their number changes. */
function renderTables() {
  const teams = analyzerTeams();
  const players = analyzerPlayers();
  const blocks = range(teams).map((team) => {
    const melds = analyzer.table[team] || (analyzer.table[team] = []);
    const seats = range(players).filter((seat) => teamOf(seat, players, analyzer.kept.options) === team);
    const head = el("div", { class: "team-head" },
      el("span", { text: `Team ${team} table (seat${seats.length > 1 ? "s" : ""} ${seats.join(", ")})` }),
      el("button", { id: `add-meld-${team}`, class: "small", text: "+ meld", onclick: () => addMeld(team) }));
    return el("div", { class: "team-table", id: `team-table-${team}` }, head,
      ...melds.map((_, index) => meldTarget(team, index)));
  });
  $("tables").replaceChildren(...blocks);
  for (let team = 0; team < teams; team++) {
    analyzer.table[team].forEach((_, index) => {
      wireTarget(`table-${team}-${index}`);
      renderTarget(`table-${team}-${index}`);
    });
  }
  if (!$("target-" + analyzer.target)) analyzer.target = "hand";
  selectTarget(analyzer.target);
}

function meldTarget(team, index) {
  const name = `table-${team}-${index}`;
  return el("div", { class: "target meld-target", id: "target-" + name, dataset: { target: name } },
    el("div", { class: "target-head" }, el("span", { text: `Meld ${index}` }),
      el("button", {
        id: `remove-meld-${team}-${index}`, class: "small remove", text: "×", title: "remove this meld",
        onclick: (event) => { event.stopPropagation(); removeMeld(team, index); },
      })),
    el("div", { class: "chips" }),
    el("input", { id: textIdOf(name), class: "card-text", type: "text", placeholder: "type cards: QS QD QH" }));
}

function addMeld(team) {
  analyzer.table[team].push([]);
  renderTables();
  selectTarget(`table-${team}-${analyzer.table[team].length - 1}`);
  positionChanged();
}

function removeMeld(team, index) {
  analyzer.table[team].splice(index, 1);
  if (analyzer.target.startsWith(`table-${team}-`)) analyzer.target = "hand";   // indices moved
  renderTables();
  positionChanged();
}

/** One checkbox per team; the ticked ones survive a change of the number of teams. */
function renderOpened(ticked) {
  $("opened").replaceChildren(...range(analyzerTeams()).map((team) =>
    el("label", { class: "check" },
      el("input", { type: "checkbox", id: `opened-${team}`, checked: ticked.includes(team),
        onchange: positionChanged }),
      ` team ${team}`)));
}

function openedTeams() {
  return range(analyzerTeams()).filter((team) => $(`opened-${team}`)?.checked);
}

function refreshSeats(select, players, chosen) {
  fillSelect(select, range(players));
  select.value = String(Math.min(Number(chosen) || 0, players - 1));
}

/** "0, 120" -> [0, 120]; an entry that is not a number goes as typed, for the server to name. */
function parseNumbers(text) {
  const parts = String(text).split(/[\s,]+/).filter(Boolean);
  if (!parts.length) return null;
  return parts.map((part) => (/^-?\d+$/.test(part) ? Number(part) : part));
}

/** The position object of POST /api/analyze (and of the hash), read from the form. */
function positionBody() {
  const players = analyzerPlayers();
  const table = {};
  for (const team of range(analyzerTeams())) {
    const melds = (analyzer.table[team] || []).filter((meld) => meld.length).map((meld) => meld.join(" "));
    if (melds.length) table[team] = melds;
  }
  const body = {
    hand: analyzer.hand.join(" "), rules: $("rules").value, options: analyzer.kept.options,
    players, seat: Number($("seat").value), phase: $("phase").value, table,
    pile: analyzer.pile.join(" "), trump: $("trump").value || null, opened: openedTeams(),
  };
  const scores = parseNumbers($("scores").value);
  const sizes = parseNumbers($("hand-sizes").value);
  if (scores) body.scores = scores;
  if (sizes) body.hand_sizes = sizes;
  if ($("stock").value !== "") body.stock = Number($("stock").value);
  if (analyzer.kept.packets_taken.length) body.packets_taken = analyzer.kept.packets_taken;
  if ($("seconds").value !== "") body.seconds = Number($("seconds").value);
  return body;
}

/** Fill the form from a position object (the example, a link, a game, a review). */
function fillPosition(position) {
  const p = position || {};
  if (p.rules && !RULES.includes(p.rules)) $("rules").append(el("option", { value: p.rules, text: p.rules }));
  $("rules").value = p.rules || "classic";
  $("players").value = String(PLAYER_COUNTS.includes(p.players) ? p.players : 4);
  refreshSeats($("seat"), analyzerPlayers(), p.seat || 0);
  $("phase").value = p.phase === "play" ? "play" : "draw";
  $("trump").value = p.trump || "";
  if (p.seconds !== undefined) $("seconds").value = p.seconds;
  $("scores").value = (p.scores || []).join(", ");
  $("hand-sizes").value = (p.hand_sizes || []).join(", ");
  $("stock").value = p.stock ?? "";
  analyzer.kept = { options: p.options || [], packets_taken: p.packets_taken || [] };
  analyzer.hand = cardsOf(p.hand);
  analyzer.pile = cardsOf(p.pile);
  analyzer.table = {};
  for (const [team, melds] of Object.entries(p.table || {})) {
    analyzer.table[team] = (melds || []).map(cardsOf);
  }
  analyzer.target = "hand";
  renderAnalyzer(p.opened || []);
  $("best-result").hidden = true;
  $("analysis-result").hidden = true;
  positionChanged();
}

function renderAnalyzer(ticked = openedTeams()) {
  renderTarget("hand");
  renderTarget("pile");
  renderTables();
  renderOpened(ticked);
  const kept = [];
  if (analyzer.kept.options.length) kept.push("rule options: " + analyzer.kept.options.join(", "));
  if (analyzer.kept.packets_taken.length) kept.push("packets taken: " + analyzer.kept.packets_taken.join(", "));
  $("kept").textContent = "Also in this position: " + kept.join("; ");
  $("kept").hidden = !kept.length;
}

function positionChanged() {
  if (currentTab === "analyze") writeHash(hashFor("analyze"), true);
}

function renderPicker() {
  const rows = SUITS.map((suit) => el("div", { class: "picker-row" }, ...RANKS.map((rank) =>
    pickerButton(rank + suit, rank, SUIT_SYMBOL[suit], RED_SUITS.includes(suit) ? "red" : "black"))));
  rows.push(el("div", { class: "picker-row" }, pickerButton("JK", "JK", "★", "joker")));
  $("picker").replaceChildren(...rows);
}

function pickerButton(card, rank, suit, colour) {
  return el("button", {
    class: "pick " + colour, dataset: { card }, title: card,
    onclick: () => {
      targetCards(analyzer.target).push(card);
      renderTarget(analyzer.target);
      positionChanged();
    },
  }, el("span", { class: "rank", text: rank }), el("span", { class: "suit", text: suit }));
}

function seatTeamMelds() {
  const position = positionBody();
  return (analyzer.table[teamOf(position.seat, position.players, position.options)] || [])
    .filter((meld) => meld.length);
}

function runBest() {
  const position = positionBody();
  const team = teamOf(position.seat, position.players, position.options);
  const melds = seatTeamMelds();
  const body = {
    hand: position.hand, table: melds.map((meld) => meld.join(" ")), rules: position.rules,
    options: position.options, trump: position.trump, players: position.players,
    opened: position.opened.includes(team),
  };
  if (Array.isArray(position.scores) && Number.isInteger(position.scores[team])) body.score = position.scores[team];
  task("Laying down", null, async () => {
    const result = await api("POST", "/api/best", body);
    const box = $("best-result");
    box.replaceChildren(laydownBlock(result, `Best lay-down for team ${team}`, melds));
    box.hidden = false;
  });
}

function runAnalyze() {
  const position = positionBody();
  const melds = seatTeamMelds();
  task("Analyzing", analyzerSeconds(), async () => {
    const result = await api("POST", "/api/analyze", position);
    renderAnalysis($("analysis-result"), result, melds);
  });
}

// ------------------------------------------------------------------ analysis results
/** A lay-down (of /api/best or an analysis's best_laydown); `tableMelds` name extensions. */
function laydownBlock(best, title, tableMelds = []) {
  const flags = [best.goes_out ? "goes out" : null, best.optimal === false ? "not proven optimal" : null]
    .filter(Boolean).join(", ");
  const block = el("div", { class: "laydown" },
    el("h3", { text: `${title}: ${signed(best.points)} points` + (flags ? ` (${flags})` : "") }));
  if (best.feasible === false) {
    block.append(el("p", { text: "No lay-down the rules allow (the opening minimum is not met)." }));
  } else if (!best.melds.length && !best.extensions.length) {
    block.append(el("p", { class: "note", text: "Nothing worth laying." }));
  }
  for (const meld of best.melds) {
    block.append(el("div", { class: "meld-line" }, el("span", { class: "label", text: "lay" }), cardRow(meld)));
  }
  for (const extension of best.extensions) {
    const onto = tableMelds[extension.table_index];
    block.append(el("div", { class: "meld-line" },
      el("span", { class: "label", text: `extend meld ${extension.table_index}` }),
      onto ? el("span", { class: "onto" }, cardRow(onto), " +") : null,
      cardRow(extension.cards), el("span", { class: "note", text: ` ${signed(extension.points)}` })));
  }
  if (best.left && best.left.length) {
    block.append(el("div", { class: "meld-line" },
      el("span", { class: "label", text: "left in hand" }), cardRow(best.left)));
  }
  return block;
}

function renderAnalysis(container, result, tableMelds) {
  container.replaceChildren(
    el("h2", { text: `Analysis: seat ${result.seat}, ${result.phase} phase` }),
    el("p", { class: "verdict" }, el("strong", { text: result.verdict }), ": ", result.reason),
    el("p", { class: "note", text: `${result.iterations} samples in ${plain(result.seconds, 1)} s. ` +
      "★ the best; ~ not separated from the others by the samples. Click a row for its reasons." }),
    decisionsTable(result.decisions),
    laydownBlock(result.best_laydown, "Best lay-down now", tableMelds));
  container.hidden = false;
}

function decisionsTable(decisions) {
  const rows = decisions.flatMap((decision, rank) => {
    const why = decision.why || [];
    const mark = (rank === 0 ? "★" : "") + (decision.separated ? "" : "~");
    const ci = decision.ci95 ? `${signed(decision.ci95[0])} … ${signed(decision.ci95[1])}` : "—";
    const row = el("tr", { class: "decision-row" + (rank === 0 ? " best" : ""), title: why.join("\n") },
      td(mark, "mark"), td(decision.decision), td(signed(decision.mean), "num"), td(ci, "num"),
      td(percent(decision.win), "num"), td(plain(decision.loss, 1), "num"), td(decision.visits, "num"));
    const plan = decision.plan && decision.plan.length > 1 ? "plan: " + decision.plan.join(" → ") : null;
    const details = el("tr", { class: "why-row", hidden: true }, el("td"), el("td", { colspan: 6 },
      el("ul", {}, ...why.map((line) => el("li", { text: line }))),
      plan && el("div", { class: "note", text: plan })));
    row.addEventListener("click", () => { details.hidden = !details.hidden; });  // the reasons on demand
    return [row, details];
  });
  return gridTable(["", "Decision", "Mean", "95% interval", "Win %", "Loss", "Samples"], rows, "decisions grid");
}

function wireAnalyze() {
  renderPicker();
  fillSelect($("rules"), RULES);
  fillSelect($("players"), PLAYER_COUNTS);
  $("players").value = "4";
  refreshSeats($("seat"), 4, 0);
  fillSelect($("trump"), ["", ...SUITS], { "": "none", S: "♠ S", H: "♥ H", D: "♦ D", C: "♣ C" });
  wireTarget("hand");
  wireTarget("pile");
  $("players").addEventListener("change", () => {
    refreshSeats($("seat"), analyzerPlayers(), $("seat").value);
    renderAnalyzer();
    positionChanged();
  });
  for (const id of ["rules", "seat", "phase", "trump", "seconds", "scores", "hand-sizes", "stock"]) {
    $(id).addEventListener("input", positionChanged);
  }
  $("btn-best").addEventListener("click", runBest);
  $("btn-analyze").addEventListener("click", runAnalyze);
  $("btn-example").addEventListener("click", () => fillPosition({ ...EXAMPLE, seconds: analyzerSeconds() }));
  $("btn-clear").addEventListener("click", () =>
    fillPosition({ players: analyzerPlayers(), rules: $("rules").value, seconds: analyzerSeconds() }));
  renderAnalyzer([]);
}
