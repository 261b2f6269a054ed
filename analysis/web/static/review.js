/* The Biriba page: the Review tab (see app.js for the element ids). */
"use strict";

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

function wireReview() {
  setReviewSeats(2, null);
  $("review-file").addEventListener("change", readReviewFile);
  $("btn-review").addEventListener("click", runReview);
}
