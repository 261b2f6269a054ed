/*
 * The Biriba page: three tabs (Analyze, Play, Review) over the JSON API of analysis/web/app.py.
 * Plain browser JavaScript, no library. Everything shown comes from the API's answers; the
 * Play tab shows only the seat's view (GET/POST /api/games...), never fetches other cards.
 *
 * Element ids (stable, for tests):
 *   tab-analyze, tab-play, tab-review   tab buttons (their panels: panel-analyze, ...)
 *   message                             the message line (the server's refusals, as they come)
 *   progress                            progress bar, visible while a search runs
 * Analyze
 *   picker                              card grid; each card button has data-card="4H" ("JK")
 *   target-hand, target-pile            target boxes: click one to select it; its chips
 *                                       (class "card", data-card) remove a card when clicked
 *   target-table-<team>-<i>             a table meld; add-meld-<team>, remove-meld-<team>-<i>
 *   hand-text, pile-text, table-text-<team>-<i>   each target's cards as text, kept in sync
 *   rules, players, seat, phase, trump, seconds, scores, hand-sizes, stock, opened-<team>
 *   btn-best, btn-analyze, btn-example, btn-clear
 *   best-result, analysis-result        results; the decisions table has class "decisions",
 *                                       rows class "decision-row", their details "why-row"
 * Play
 *   play-players, play-rules, play-options (a box per option), play-seat, play-opponents,
 *   play-seed, play-match, play-coach,
 *   btn-new-game, game-view, game-status, game-others, game-table, game-pile, game-hand,
 *   game-drawn, game-moves (buttons class "move", data-number), move-text, btn-move,
 *   btn-hint, hint-result, btn-analyze-position, record-link, btn-review-game,
 *   game-events, game-log, game-over, breakdown
 * Review
 *   review-file, review-source, review-seat, review-seconds, review-iterations, btn-review,
 *   review-result,
 *   review-chart (svg; points class "point", data-index), review-table (rows class
 *   "decision", data-index), review-summary
 *
 * URL hash: #analyze?p=<encodeURIComponent(JSON of the position)>, #play?id=<game id>,
 * #review?game=<game id> (a reviewed game's record is fetched again on reload).
 */
"use strict";

const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = ["S", "H", "D", "C"];
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED_SUITS = ["H", "D"];
let RULES = ["classic"];           // the presets, and each option's presets: GET /api/rules at start
let RULE_OPTIONS = {};
const PLAYER_COUNTS = [2, 3, 4, 6];
const TABS = ["analyze", "play", "review"];
const MOVE_GROUPS = ["draw", "lay", "extend", "discard", "trump"];
const HINT_SECONDS = 2;
// seat lines avoid the grade colours (yellow, orange, red), which mark the errors
const SEAT_COLOURS = ["#2a6fdb", "#8e44ad", "#2f9e6e", "#7a5c3a", "#17a2b8", "#5d6d7e"];
const GRADE_COLOURS = { inaccuracy: "#e6b800", mistake: "#e67e22", blunder: "#d62728" };
const EXAMPLE = {
  rules: "classic", players: 2, seat: 0, phase: "play", hand: "JC 4D 9H",
  table: { 0: ["QS QD QH"], 1: ["5C 6C 7C 8C 9C 10C"] }, pile: "3D 7S",
  opened: [0, 1], hand_sizes: [3, 8],
};

// ------------------------------------------------------------------ small helpers
const $ = (id) => document.getElementById(id);

/** An element: attrs "class", "text", "dataset", "on<event>" or plain attributes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** An SVG element (they need their namespace). */
function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttributes(node, attrs);
  node.append(...children);
  return node;
}

function setAttributes(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
}

const td = (text, cls) => el("td", { class: cls, text: String(text) });

/** A table with a header row; `rows` are <tr> elements. */
function gridTable(headers, rows, cls = "grid") {
  return el("table", { class: cls }, el("thead", {}, el("tr", {}, ...headers.map((text) => el("th", { text })))),
    el("tbody", {}, ...rows));
}

function fillSelect(select, values, labels = {}) {
  select.replaceChildren(...values.map((value) =>
    el("option", { value, text: labels[value] ?? String(value) })));
}

function range(count) {
  return Array.from({ length: count }, (_, i) => i);
}

const signed = (x, digits = 0) => (x === null || x === undefined) ? "—"
  : (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(digits);
const percent = (x) => (x === null || x === undefined) ? "—" : (100 * x).toFixed(1) + "%";
const plain = (x, digits = 0) => (x === null || x === undefined) ? "—" : Number(x).toFixed(digits);
const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Team count as the engine counts them: 2 and 3 players (or "individual") play alone. */
function teamCount(players, options = []) {
  return players <= 3 || options.includes("individual") ? players : players / 2;
}
const teamOf = (seat, players, options) => seat % teamCount(players, options);

// ------------------------------------------------------------------ messages, API, progress
function showMessage(text, kind = "error") {
  const line = $("message");
  line.textContent = text || "";
  line.className = "message " + kind;
  line.hidden = !text;
}

/** Call the API; a refusal throws an Error holding the server's own message. */
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new Error("the server cannot be reached: " + error.message);
  }
  let data = null;
  try { data = await response.json(); } catch (_) { /* not JSON: say the status below */ }
  if (!response.ok) throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
  return data;
}

let progressTimer = null;

/** The request is synchronous, so the bar is animated here over the expected seconds;
 *  without an estimate (a game move) it just pulses. */
function startProgress(label, seconds) {
  const bar = $("progress");
  const fill = bar.querySelector(".progress-fill");
  const text = bar.querySelector(".progress-label");
  const started = performance.now();
  clearInterval(progressTimer);
  bar.hidden = false;
  bar.classList.toggle("indeterminate", !seconds);
  fill.style.width = seconds ? "0%" : "";
  text.textContent = label + "…";
  if (!seconds) return;
  progressTimer = setInterval(() => {
    const spent = (performance.now() - started) / 1000;
    fill.style.width = Math.min(100, (100 * spent) / seconds).toFixed(1) + "%";
    text.textContent = `${label}… ${Math.min(spent, seconds).toFixed(1)} / ${seconds} s`;
  }, 100);
}

function stopProgress() {
  clearInterval(progressTimer);
  $("progress").hidden = true;
}

let busy = false;

/** Run one request at a time (the server searches one at a time too), with the progress
 *  bar; a failure lands in the message line. */
async function task(label, seconds, work) {
  if (busy) {
    showMessage("wait for the running request to finish", "info");
    return;
  }
  busy = true;
  document.body.classList.add("busy");
  showMessage("");
  startProgress(label, seconds);
  try {
    await work();
  } catch (error) {
    showMessage(error.message);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
    stopProgress();
  }
}

// ------------------------------------------------------------------ cards
const CARD_PATTERN = /^(10|[2-9AKQJ])([SHDC])$/;

/** Card text as the command line writes it ("4H 5H 2C"); commas are allowed too. */
function parseCards(text) {
  return String(text || "").toUpperCase().split(/[\s,]+/).filter(Boolean);
}

function cardsOf(value) {
  return Array.isArray(value) ? value.map(String) : parseCards(value);
}

/** A card chip like a small playing card; `onClick` makes it clickable. */
function cardChip(card, { onClick, highlight, title } = {}) {
  const chip = el("span", { class: "card", dataset: { card }, title: title || card });
  const match = CARD_PATTERN.exec(card);
  if (card === "JK") {
    chip.classList.add("joker");
    chip.append(el("span", { class: "rank", text: "JK" }), el("span", { class: "suit", text: "★" }));
  } else if (match) {
    chip.classList.add(RED_SUITS.includes(match[2]) ? "red" : "black");
    chip.append(el("span", { class: "rank", text: match[1] }),
      el("span", { class: "suit", text: SUIT_SYMBOL[match[2]] }));
  } else {
    chip.classList.add("invalid");     // shown as typed: the server names the problem
    chip.textContent = card;
  }
  if (onClick) {
    chip.classList.add("clickable");
    chip.addEventListener("click", onClick);
  }
  if (highlight) chip.classList.add("highlight");
  return chip;
}

function cardRow(cards, options = {}) {
  return el("span", { class: "chips" }, ...cards.map((card) => cardChip(card, options)));
}

// ------------------------------------------------------------------ URL hash
function readHash() {
  const text = location.hash.replace(/^#/, "");
  const cut = text.indexOf("?");
  const tab = cut < 0 ? text : text.slice(0, cut);
  const params = new URLSearchParams(cut < 0 ? "" : text.slice(cut + 1));
  return { tab: TABS.includes(tab) ? tab : "analyze", params };
}

function hashFor(tab) {
  if (tab === "analyze") return "#analyze?p=" + encodeURIComponent(JSON.stringify(positionBody()));
  if (tab === "play") return game.id ? "#play?id=" + encodeURIComponent(game.id) : "#play";
  return review.gameId ? "#review?game=" + encodeURIComponent(review.gameId) : "#review";
}

/** Edits replace the current history entry; tab changes add one (so Back works). */
function writeHash(hash, replace = false) {
  if (location.hash === hash) return;
  if (replace) history.replaceState(null, "", hash);
  else location.hash = hash;
}

let currentTab = "analyze";

function showTab(tab) {
  currentTab = tab;
  for (const name of TABS) {
    $("panel-" + name).hidden = name !== tab;
    $("tab-" + name).classList.toggle("active", name === tab);
  }
}

/** Restore the tab and its state from the hash (on load, on Back, on a pasted link). */
function applyHash() {
  const { tab, params } = readHash();
  showTab(tab);
  if (tab === "analyze" && params.get("p")) {
    const text = params.get("p");
    if (text === JSON.stringify(positionBody())) return;     // our own edit: nothing to do
    try {
      fillPosition(JSON.parse(text));
    } catch (error) {
      showMessage("the link's position cannot be read: " + error.message);
    }
  } else if (tab === "play" && params.get("id") && params.get("id") !== game.id) {
    openGame(params.get("id"));
  } else if (tab === "review" && params.get("game") && params.get("game") !== review.gameId) {
    task("Fetching the record", null, () => loadGameRecord(params.get("game")));
  }
}

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

// ================================================================== Play
const game = { id: null, view: null };

function newGame() {
  const body = {
    players: Number($("play-players").value), rules: $("play-rules").value,
    options: [...$("play-options").querySelectorAll("input:checked")].map((box) => box.value),
    seat: Number($("play-seat").value), opponents: $("play-opponents").value,
    match: $("play-match").checked, coach: $("play-coach").checked,
  };
  if ($("play-seed").value !== "") body.seed = Number($("play-seed").value);
  task("Dealing", null, async () => {
    const answer = await api("POST", "/api/games", body);
    game.id = answer.id;
    showView(answer.view);
    writeHash(hashFor("play"));
  });
}

function openGame(id) {
  task("Opening the game", null, async () => {
    try {
      const view = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      game.id = id;
      showView(view);
    } catch (error) {
      game.id = null;
      $("game-view").hidden = true;
      throw error;
    }
  });
}

function sendMove(move) {
  if (!game.id || !String(move).trim()) return;
  task("Playing", null, async () => {
    const view = await api("POST", `/api/games/${game.id}/moves`, { move: String(move).trim() });
    $("move-text").value = "";
    showView(view);
  });
}

/** Put a game's own settings back into the form, so a reopened game reads right. */
function syncPlayForm(view) {
  $("play-players").value = String(view.players);
  $("play-rules").value = view.rules;
  fillPlayOptions(view.options || []);
  refreshSeats($("play-seat"), view.players, view.seat);
  if ([...$("play-opponents").options].some((o) => o.value === view.opponents)) {
    $("play-opponents").value = view.opponents;
  }
  $("play-match").checked = view.match;
  $("play-coach").checked = view.coach;
}

const seatName = (seat, view) => (seat === view.seat ? `you (seat ${seat})` : `seat ${seat}`);

function showView(view) {
  game.view = view;
  syncPlayForm(view);
  $("game-view").hidden = false;
  $("hint-result").hidden = true;           // a hint is for the position it was asked in
  renderStatus(view);
  renderOthers(view);
  renderGameTable(view);
  renderHand(view);
  renderMoves(view);
  renderEvents(view);
  renderLog(view);
  renderOver(view);
  renderBreakdown(view);
  $("record-link").href = `/api/games/${game.id}/record`;
  // the record holds the deal's seed, which tells every hidden card: given once it is over
  $("record-link").hidden = !view.over;
  $("btn-review-game").disabled = !view.over;
  $("btn-hint").disabled = !view.your_turn;
  $("btn-analyze-position").disabled = !view.your_turn;
  $("btn-move").disabled = !view.your_turn;
}

function renderStatus(view) {
  const turn = view.over ? `game over (${view.end_reason})`
    : view.your_turn ? `your turn: ${view.phase}` : `seat ${view.current} to move`;
  const scores = view.match_scores.map((score, team) => `team ${team}: ${score}`).join(", ");
  $("game-status").replaceChildren(
    el("strong", { text: turn }),
    ` · round ${view.round} · ${view.rules}${view.match ? " match" : ""} · ` +
    `trump ${view.trump ? SUIT_SYMBOL[view.trump] + " " + view.trump : "none"} · vs ${view.opponents}` +
    (view.match ? ` · match scores ${scores}` : ""));
}

function renderOthers(view) {
  const seats = Object.keys(view.others).map(Number);
  $("game-others").replaceChildren(el("h2", { text: "Other seats" }), el("div", { class: "others" },
    ...seats.map((seat) => {
      const other = view.others[seat];
      return el("div", { class: "other" + (seat === view.current ? " current" : "") },
        el("strong", { text: `Seat ${seat}` }),
        ` (team ${teamOf(seat, view.players, view.options)}): ${count(other.cards, "card")}`,
        other.packet ? el("span", { class: "badge", text: "holds its packet" }) : null,
        other.known.length
          ? el("div", {}, el("span", { class: "note", text: "known: " }), cardRow(other.known)) : null);
    })));
}

function renderGameTable(view) {
  const teams = view.teams.map((team) => el("div", { class: "team-table" },
    el("div", { class: "team-head" },
      el("span", { text: `Team ${team.team}: ` + team.seats.map((s) => seatName(s, view)).join(", ") }),
      el("span", { class: "badge" + (team.opened ? " on" : ""), text: team.opened ? "opened" : "not opened" })),
    team.melds.length ? null : el("div", { class: "note", text: "no melds yet" }),
    ...team.melds.map((meld, index) => el("div", { class: "meld-line" },
      el("span", { class: "label", text: String(index) }), cardRow(meld.cards),
      el("span", { class: "points", text: `${meld.points} pts` }),
      meld.biriba ? el("span", { class: "badge biriba", text: meld.biriba }) : null)),
    team.red_threes.length ? el("div", { class: "meld-line" },
      el("span", { class: "label", text: "red threes" }), cardRow(team.red_threes)) : null));
  const top = view.pile.length - 1;
  const pile = view.pile.map((card, i) =>
    cardChip(card, { highlight: i === top, title: i === top ? card + " (top)" : card }));
  const packets = view.packets.map((packet, i) =>
    `packet ${i + 1}: ${packet.taken ? "taken" : count(packet.cards, "card")}`).join(" · ");
  $("game-table").replaceChildren(el("h2", { text: "Table" }), ...teams,
    el("div", { class: "pile-line" },
      el("span", { class: "label", text: `pile (${view.pile.length}, top last)` }),
      el("span", { class: "chips", id: "game-pile" }, ...pile)),
    el("div", { class: "note", text: `stock: ${count(view.stock, "card")}` + (packets ? " · " + packets : "") }));
}

function renderHand(view) {
  let marked = false;     // the drawn card is highlighted once, even with a twin in hand
  $("game-hand").replaceChildren(...view.hand.map((card) => {
    const highlight = !marked && card === view.drawn;
    marked = marked || highlight;
    return cardChip(card, {
      highlight, title: card + ": click to add it to the move text",
      onClick: () => { $("move-text").value = ($("move-text").value.trim() + " " + card).trim(); },
    });
  }));
  $("game-drawn").replaceChildren(...(view.drawn ? ["you drew ", cardChip(view.drawn)] : []),
    ` ${count(view.hand.length, "card")}`);
}

function renderMoves(view) {
  const box = $("game-moves");
  if (!view.your_turn) {
    box.replaceChildren(el("p", { class: "note", text: view.over ? "The game is over." : "Not your turn." }));
    return;
  }
  const groups = [...MOVE_GROUPS, ...new Set(view.moves.map((m) => m.group).filter((g) => !MOVE_GROUPS.includes(g)))];
  box.replaceChildren(...groups.map((group) => {
    const moves = view.moves.filter((move) => move.group === group);
    if (!moves.length) return null;
    return el("div", { class: "move-group" }, el("span", { class: "label", text: group }),
      ...moves.map(moveButton));
  }).filter(Boolean));
}

function moveButton(move) {
  const card = move.text.startsWith("discard ") ? move.text.slice(8) : null;
  return el("button", {
    class: "move", dataset: { number: String(move.number) }, title: `${move.number}: ${move.text}`,
    onclick: () => sendMove(String(move.number)),
  }, card ? "discard " : move.text, card ? cardChip(card) : null,
  move.points === null || move.points === undefined ? null
    : el("span", { class: "points", text: ` ${signed(move.points)}` }),
  move.biriba ? el("span", { class: "badge biriba", text: move.biriba }) : null);
}

function eventItem(event, view) {
  if (event.coach !== undefined) return el("li", { class: "coach", text: event.coach });
  return el("li", { class: event.seat === view.seat ? "mine" : "" }, `${seatName(event.seat, view)}: ${event.move}`,
    event.round_over ? el("strong", { text: " (round over)" }) : null);
}

function renderEvents(view) {
  const items = view.events.map((event) => eventItem(event, view));
  $("game-events").replaceChildren(...(items.length ? items : [el("li", { class: "note", text: "nothing yet" })]));
}

function renderLog(view) {
  const log = $("game-log");
  log.replaceChildren(...view.log.map((event) => eventItem(event, view)));
  log.scrollTop = log.scrollHeight;       // the newest move in sight
}

function renderOver(view) {
  const box = $("game-over");
  box.hidden = !view.over;
  if (!view.over) return;
  const hands = Object.entries(view.hands || {}).map(([seat, cards]) => el("div", { class: "meld-line" },
    el("span", { class: "label", text: seatName(Number(seat), view) }),
    cards.length ? cardRow(cards) : el("span", { class: "note", text: "no cards" })));
  box.replaceChildren(el("h2", { text: `Game over: ${view.end_reason}` }), ...hands);
}

function renderBreakdown(view) {
  const box = $("breakdown");
  box.hidden = !view.rounds.length;
  const columns = ["melds", "bonuses", "closing", "hands", "packet", "red_threes", "total"];
  const tables = view.rounds.map((round, index) => [
    el("h3", { text: `Round ${index + 1}: ${round.reason}` }),
    gridTable(["seats", ...columns.map((c) => c.replace("_", " "))], round.breakdown.map((row) => el("tr", {},
      td(row.seats.map((s) => seatName(s, view)).join(", ")),
      ...columns.map((c) => td(row[c], c === "total" ? "num total" : "num")))), "grid breakdown")]);
  box.replaceChildren(el("h2", { text: "End of round" }), ...tables.reverse().flat());   // newest first
}

function runHint() {
  const view = game.view;
  const team = view.teams.find((t) => t.seats.includes(view.seat));
  task("Thinking", HINT_SECONDS, async () => {
    const result = await api("GET", `/api/games/${game.id}/hint?seconds=${HINT_SECONDS}`);
    renderAnalysis($("hint-result"), result, team ? team.melds.map((m) => m.cards) : []);
  });
}

/** Show a position object in the Analyze tab (a game's, or a reviewed decision's). */
function openInAnalyzer(position) {
  fillPosition({ ...position, seconds: analyzerSeconds() });
  showTab("analyze");
  writeHash(hashFor("analyze"));
}

function analyzeGamePosition() {
  task("Fetching the position", null, async () => {
    openInAnalyzer(await api("GET", `/api/games/${game.id}/position`));
  });
}

/** Fetch the game's record and review it, in one request slot (see loadGameRecord). */
function reviewGame() {
  if (!game.id) return;
  const id = game.id;
  task("Reviewing", reviewSeconds(), async () => {
    await loadGameRecord(id);
    await reviewRequest();
  });
}

// ================================================================== Review
const review = { record: null, gameId: null, onlySeat: null, result: null };

/** A game of this server: its record, and (while it is not over) only the person's seat,
 *  since the others' decisions and positions would show cards the person has not seen. */
async function loadGameRecord(id) {
  const [view, record] = await Promise.all([
    api("GET", `/api/games/${encodeURIComponent(id)}`),
    api("GET", `/api/games/${encodeURIComponent(id)}/record`)]);
  review.record = record;
  review.gameId = id;
  review.onlySeat = view.over ? null : view.seat;
  setReviewSeats(record.players, review.onlySeat);
  $("review-source").textContent = `game ${id.slice(0, 8)}…, ${record.actions.length} actions` +
    (view.over ? "" : ` (in progress: only your seat ${view.seat})`);
  showTab("review");
  writeHash(hashFor("review"));
}

function setReviewSeats(players, onlySeat) {
  const seats = onlySeat === null ? ["", ...range(players)] : [onlySeat];
  fillSelect($("review-seat"), seats, { "": "all" });
  $("review-seat").value = onlySeat === null ? "" : String(onlySeat);
}

function readReviewFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    try {
      const record = JSON.parse(reader.result);
      if (!record || !Array.isArray(record.actions)) throw new Error("it is not a game record");
      review.record = record;
      review.gameId = null;
      review.onlySeat = null;
      setReviewSeats(record.players || 2, null);
      $("review-source").textContent = `${file.name}, ${record.actions.length} actions`;
      showMessage("");
      writeHash(hashFor("review"), true);
    } catch (error) {
      showMessage(`${file.name} cannot be read: ${error.message}`);
    }
  };
  reader.onerror = () => showMessage(`${file.name} cannot be read`);
  reader.readAsText(file);
}

const reviewSeconds = () => Number($("review-seconds").value) || 30;

function runReview() {
  if (!review.record) {
    showMessage("load a record first (a file, or Review this game on the Play tab)");
    return;
  }
  task("Reviewing", reviewSeconds(), reviewRequest);
}

async function reviewRequest() {
  const seat = $("review-seat").value;
  const rollouts = $("review-iterations").value.trim();
  const path = `/api/review?seconds=${reviewSeconds()}` + (seat !== "" ? `&seat=${seat}` : "") +
    (rollouts ? `&iterations=${Number(rollouts)}` : "");
  review.result = await api("POST", path, review.record);
  renderReview(review.result);
}

function renderReview(result) {
  $("review-result").hidden = false;
  renderChart(result, review.record.actions.length);
  renderSummary(result);
  renderReviewTable(result);
}

function openDecision(index) {
  task("Fetching the position", null, async () => {
    openInAnalyzer(await api("POST", "/api/position", { record: review.record, at: index }));
  });
}

/** Round ticks: steps of 1, 2 or 5 times a power of ten, about `count` of them. */
function niceTicks(low, high, count) {
  const rough = (high - low) / count || 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const ticks = [];
  for (let tick = Math.ceil(low / step) * step; tick <= high + 1e-9; tick += step) ticks.push(tick);
  return ticks;
}

/** The equity chart: each reviewed seat's expected result after its decisions. */
function renderChart(result, actions) {
  const chart = $("review-chart");
  const width = 1200, height = 320, left = 64, right = 160, top = 16, bottom = 40;
  const points = result.decisions.filter((d) => d.played_mean !== null && d.played_mean !== undefined);
  const means = points.map((d) => d.played_mean);
  let low = Math.min(0, ...means), high = Math.max(0, ...means);
  const pad = (high - low) * 0.08 || 10;
  low -= pad; high += pad;
  const xMax = Math.max(actions, ...points.map((d) => d.index + 1), 1);
  const x = (index) => left + ((width - left - right) * index) / xMax;
  const y = (value) => top + ((height - top - bottom) * (high - value)) / (high - low);
  const parts = [];
  for (const tick of niceTicks(low, high, 6)) {
    parts.push(svgEl("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick),
      class: tick === 0 ? "zero" : "gridline" }),
      svgEl("text", { x: left - 6, y: y(tick) + 4, class: "tick", "text-anchor": "end" }, signed(tick)));
  }
  for (const tick of niceTicks(0, xMax, 10)) {
    parts.push(svgEl("line", { x1: x(tick), x2: x(tick), y1: height - bottom, y2: height - bottom + 5,
      class: "axis" }),
      svgEl("text", { x: x(tick), y: height - bottom + 18, class: "tick", "text-anchor": "middle" }, String(tick)));
  }
  parts.push(svgEl("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "axis" }),
    svgEl("line", { x1: left, x2: left, y1: top, y2: height - bottom, class: "axis" }),
    svgEl("text", { x: (left + width - right) / 2, y: height - 6, class: "axis-label", "text-anchor": "middle" },
      "action index"),
    svgEl("text", { x: 14, y: (top + height - bottom) / 2, class: "axis-label", "text-anchor": "middle",
      transform: `rotate(-90 14 ${(top + height - bottom) / 2})` }, "expected points"));
  const seats = [...new Set(points.map((d) => d.seat))].sort((a, b) => a - b);
  for (const seat of seats) {
    const mine = points.filter((d) => d.seat === seat).sort((a, b) => a.index - b.index);
    const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    const line = mine.map((d) => `${x(d.index)},${y(d.played_mean)}`).join(" ");
    parts.push(svgEl("polyline", { points: line, stroke: colour, class: "series" }));
    for (const d of mine) parts.push(chartPoint(d, x(d.index), y(d.played_mean), colour));
  }
  if (!points.length) {
    parts.push(svgEl("text", { x: (left + width - right) / 2, y: (top + height - bottom) / 2,
      class: "axis-label", "text-anchor": "middle" },
      "No decision played had enough samples for a figure: give the review more seconds or rollouts."));
  }
  parts.push(chartLegend(seats, width - right + 16, top + 10));
  chart.replaceChildren(...parts);
}

function chartPoint(decision, cx, cy, colour) {
  const grade = decision.grade;
  const label = `#${decision.index} seat ${decision.seat}: ${decision.played} (${signed(decision.played_mean)})` +
    (grade ? `, ${grade}: best ${decision.best}, loss ${plain(decision.loss)}` : "");
  return svgEl("circle", {
    cx, cy, r: grade ? 6 : 4, fill: GRADE_COLOURS[grade] || colour, stroke: grade ? "#333" : colour,
    class: "point", "data-index": decision.index, onclick: () => openDecision(decision.index),
  }, svgEl("title", {}, label));
}

function chartLegend(seats, x0, y0) {
  const rows = [...seats.map((seat) => [SEAT_COLOURS[seat % SEAT_COLOURS.length], `seat ${seat}`]),
    ...Object.entries(GRADE_COLOURS).map(([grade, colour]) => [colour, grade])];
  return svgEl("g", { class: "legend" }, ...rows.map(([colour, text], i) => svgEl("g", {},
    svgEl("circle", { cx: x0, cy: y0 + 20 * i, r: 5, fill: colour }),
    svgEl("text", { x: x0 + 12, y: y0 + 20 * i + 4 }, text))));
}

function renderSummary(result) {
  const columns = {   // a column's figure: a summary key, or how to write it
    decisions: "decisions", counted: "counted",
    "mean loss": (s) => plain(s.mean_loss, 1) + interval(s.mean_loss_ci95, 1),
    accuracy: (s) => (s.accuracy === null ? "—" : plain(s.accuracy, 1) + "%") + interval(s.accuracy_ci95, 0),
    inaccuracies: "inaccuracy", mistakes: "mistake", blunders: "blunder",
    luck: (s) => signed(s.luck), rating: (s) => s.rating ?? "—",
  };
  const cell = (summary, how) => (typeof how === "function" ? how(summary) : summary[how] ?? "—");
  const rows = Object.entries(result.summary).map(([seat, summary]) => el("tr", {},
    td(`seat ${seat}`), ...Object.values(columns).map((how) => td(cell(summary, how), "num"))));
  const outcome = (result.result || []).map((r) => signed(r)).join(", ");
  const thin = Object.values(result.summary).some((s) => s.rating === "none at this budget");
  $("review-summary").replaceChildren(gridTable(["", ...Object.keys(columns)], rows),
    ...(outcome ? [el("p", { class: "note", text: "round result (score difference per team): " + outcome })] : []),
    ...(thin ? [el("p", { class: "note", text: "A loss counts only where the samples separate it from the " +
      "best; at this budget small losses do not separate, so the mean loss and the accuracy are a floor " +
      "and an upper bound, and no rating band is given. More rollouts separate more." })] : []));
}

const interval = (ci, digits) => (ci ? ` [${plain(ci[0], digits)}, ${plain(ci[1], digits)}]` : "");

function renderReviewTable(result) {
  const rows = result.decisions.map((d) => el("tr", {
    class: "decision " + (d.grade || "none"), dataset: { index: String(d.index) },
    title: `${d.verdict}; ${d.samples} samples` + (d.obvious ? "; obvious" : ""),
    onclick: () => openDecision(d.index),
  }, td(d.index, "num"), td(d.seat), td(d.played),
  d.best === d.played ? td("(same)", "note") : td(d.best), td(plain(d.loss), "num"),
  el("td", { class: "grade" }, d.grade ? el("span", { class: "badge grade-" + d.grade, text: d.grade })
    : el("span", { class: "note", text: d.obvious ? "obvious" : d.verdict })),
  td(d.why, "why")));
  const table = gridTable(["#", "Seat", "Played", "Best", "Loss", "Grade", "Why"], rows);
  $("review-table").replaceChildren(...table.childNodes);     // its head and body, into the page's table
}

// ================================================================== start
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

/** The Play tab's rule options: a box for each option of the chosen preset. */
function fillPlayOptions(checked = []) {
  const preset = $("play-rules").value;
  const names = Object.keys(RULE_OPTIONS).filter((name) => RULE_OPTIONS[name].presets.includes(preset));
  $("play-options").replaceChildren(...(names.length ? names.map((name) => el("label", { class: "check" },
    el("input", { type: "checkbox", value: name, checked: checked.includes(name) }),
    " " + name.replaceAll("_", " "))) : [el("span", { class: "note", text: "none for this preset" })]));
}

function wirePlay() {
  fillSelect($("play-players"), PLAYER_COUNTS);
  $("play-players").value = "4";
  fillSelect($("play-rules"), RULES);
  fillPlayOptions();
  $("play-rules").addEventListener("change", () => fillPlayOptions());
  refreshSeats($("play-seat"), 4, 0);
  $("play-players").addEventListener("change", () =>
    refreshSeats($("play-seat"), Number($("play-players").value), $("play-seat").value));
  $("btn-new-game").addEventListener("click", newGame);
  $("btn-move").addEventListener("click", () => sendMove($("move-text").value));
  $("move-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter") sendMove($("move-text").value);
  });
  $("btn-hint").addEventListener("click", runHint);
  $("btn-analyze-position").addEventListener("click", analyzeGamePosition);
  $("btn-review-game").addEventListener("click", reviewGame);
}

function wireReview() {
  setReviewSeats(2, null);
  $("review-file").addEventListener("change", readReviewFile);
  $("btn-review").addEventListener("click", runReview);
}

async function start() {
  try {
    const known = await api("GET", "/api/rules");
    RULES = Object.keys(known.presets);
    RULE_OPTIONS = known.options;
  } catch (error) {
    showMessage(`the rule presets cannot be read: ${error.message}`);
  }
  wireAnalyze();
  wirePlay();
  wireReview();
  for (const tab of TABS) $("tab-" + tab).addEventListener("click", () => { showTab(tab); writeHash(hashFor(tab)); });
  window.addEventListener("hashchange", applyHash);
  applyHash();
}

start();
