/*
 * The Biriba page's shared part: constants, small helpers, the message line, the API call,
 * the progress bar, cards, the URL hash and the tabs. The page loads common.js, analyze.js,
 * play.js, review.js, then app.js (the start), as plain scripts sharing one global scope.
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
