/* The Biriba page: the Play tab (see app.js for the element ids). */
"use strict";

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
