/*
 * The Biriba page: three tabs (Analyze, Play, Review) over the JSON API of analysis/web/app.py.
 * Plain browser JavaScript, no library, in five scripts sharing one global scope: common.js
 * (helpers, the API call, cards, the hash, the tabs), analyze.js, play.js, review.js (a tab
 * each) and this one, the start. Everything shown comes from the API's answers; the
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

// ================================================================== start
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
