// The card table: a match against one computer player, to N points or N deals.  Each game:
// both rows of five packets face down, revealed position by position (animated, skippable),
// each position's points going to its winner, the final score once, then the next deal or a
// rematch.  Every game is graded too, so the session's history has its equilibrium loss.
"use strict";
(function () {
  const Q = window.Quintet;
  const { N_PACKETS, state, t } = Q;
  const $ = (id) => document.getElementById(id);
  const REVEAL_MS = 650;
  let game = null; // {result, revealed, timer}

  const session = () => Q.session.get();

  function fillPlayers() {
    const select = $("player");
    const chosen = select.value || (session().match && session().match.opponent) || state.recommended;
    select.replaceChildren(...state.players.map((p) => Q.el("option", { value: p.name }, p.title[state.lang])));
    if (state.players.some((p) => p.name === chosen)) select.value = chosen;
    describe();
  }

  function describe() {
    const info = Q.playerInfo($("player").value);
    $("player-description").textContent = info ? info.description[state.lang] : "";
  }

  // ---------- the match ----------
  function newMatch() {
    const target = parseInt($("match-target").value, 10);
    session().match = {
      opponent: $("player").value,
      kind: $("match-kind").value,
      target: Number.isInteger(target) && target > 0 ? target : 3,
      games: [],
      score: [0, 0],
      // The match's seed: each game's computer layout varies with it (greedy and house too),
      // so a deal met again (a rematch) is not laid out the same way.
      seed: Math.floor(Math.random() * 2 ** 31),
    };
    Q.session.save();
    clearGame();
    renderMatch();
  }

  const matchOver = (m) => m && (m.kind === "deals" ? m.games.length >= m.target : Math.max(...m.score) >= m.target);

  function renderMatch() {
    const m = session().match;
    const line = $("match-score");
    if (!m) {
      line.textContent = t("no_match");
      line.dataset.games = "0";
      $("match-over").hidden = true;
      return;
    }
    line.dataset.games = String(m.games.length);
    line.dataset.score = m.score.join(":");
    const goal = m.kind === "deals" ? t("to_deals", { n: m.target }) : t("to_points", { n: m.target });
    line.textContent = t("match_line", { who: Q.playerTitle(m.opponent), goal, a: m.score[0], b: m.score[1], g: m.games.length });
    const over = $("match-over");
    over.hidden = !matchOver(m);
    if (matchOver(m)) {
      const [a, b] = m.score;
      over.textContent = a > b ? t("match_won", { a, b }) : a < b ? t("match_lost", { a, b }) : t("match_drawn", { a, b });
      over.dataset.result = a > b ? "win" : a < b ? "loss" : "draw";
    }
  }

  // ---------- one game ----------
  async function play() {
    if (!Q.layout.complete()) {
      Q.showMessage(t("need_all"));
      return;
    }
    if (!session().match || matchOver(session().match)) newMatch();
    const m = session().match;
    const arrangement = Q.layout.arrangementText();
    const body = { ...Q.holdingsBody(), arrangement };
    try {
      const variation = (m.seed || 0) + m.games.length;
      const result = await Q.runJob("play", { ...body, opponent: m.opponent, variation });
      const graded = await Q.runJob("grade", body);
      const doc = result.score;
      m.games.push({ deal: session().current.deal, points: doc.points });
      m.score = [m.score[0] + doc.points[0], m.score[1] + doc.points[1]];
      Q.session.save();
      clearGame();
      // Into the history once the last position is shown (the history would tell the score).
      const record = session().current.graded ? null : () =>
        Q.session.record(graded, { opponent: m.opponent, theirs: doc.arrangements[1], points: doc.points });
      game = { result, revealed: 0, timer: setInterval(revealOne, REVEAL_MS), record };
      renderGame();
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  function revealOne() {
    if (!game) return;
    game.revealed = Math.min(N_PACKETS, game.revealed + 1);
    if (game.revealed >= N_PACKETS) stopTimer();
    renderGame();
  }

  function skip() {
    if (!game) return;
    game.revealed = N_PACKETS;
    stopTimer();
    renderGame();
    $("next-deal").focus();
  }

  function stopTimer() {
    if (game && game.timer) clearInterval(game.timer);
    if (game) game.timer = null;
  }

  function clearGame() {
    stopTimer();
    if (game && game.record) game.record(); // a game left before its end is still recorded
    game = null;
    $("duel").replaceChildren();
    $("duel").hidden = true;
    $("game-controls").hidden = true;
  }

  function packetCell(cards, shown, side) {
    const box = Q.el("div", { class: `duel-packet ${side}` });
    if (shown) box.appendChild(Q.layout.miniPacket(cards));
    else {
      const row = Q.el("span", { class: "mini-cards" });
      row.append(...cards.map(() => Cards.back(state.lang)));
      box.appendChild(row);
    }
    return box;
  }

  function renderGame() {
    const box = $("duel");
    if (!game) return;
    const doc = game.result.score;
    const points = doc.rules.position_points;
    let mine = 0, theirs = 0;
    const columns = doc.outcomes.map((outcome, i) => {
      const shown = i < game.revealed;
      const column = Q.el("div", { class: "duel-position", id: "reveal-" + (i + 1), "data-position": String(i + 1) });
      column.dataset.outcome = shown ? (outcome > 0 ? "win" : outcome < 0 ? "loss" : "tie") : "";
      column.classList.toggle("shown", shown);
      const chip = Q.el("div", { class: "chip" });
      if (shown) {
        if (outcome > 0) mine += points[i];
        if (outcome < 0) theirs += points[i];
        chip.textContent = outcome > 0 ? t("chip_you", { p: points[i] }) : outcome < 0 ? t("chip_them", { p: points[i] }) : t("chip_tie");
      } else chip.textContent = `${i + 1} · ${points[i]} ${t("points")}`;
      column.append(
        Q.el("div", { class: "duel-head" }, `${t("position")} ${i + 1} · ${points[i]} ${t("points")}`),
        packetCell(doc.arrangements[1][i], shown, "theirs"), chip, packetCell(doc.arrangements[0][i], shown, "mine"),
      );
      return column;
    });
    const names = Q.el("div", { class: "duel-names" });
    names.append(Q.el("span", {}, t("row_theirs", { who: Q.playerTitle(game.result.opponent) })), Q.el("span", {}, t("row_yours")));
    const score = Q.el("p", { class: "duel-score", "aria-live": "polite" });
    if (game.revealed < N_PACKETS) {
      score.id = "running-score";
      score.textContent = t("running", { a: mine, b: theirs });
    } else {
      score.id = "final-score";
      score.dataset.result = doc.result;
      score.dataset.points = doc.points.join(":");
      const margin = Math.abs(doc.margin);
      score.textContent = `${doc.points[0]} : ${doc.points[1]} — ` +
        (doc.margin > 0 ? t("final_win", { m: margin }) : doc.margin < 0 ? t("final_loss", { m: margin }) : t("final_draw"));
    }
    const grid = Q.el("div", { class: "duel-grid" });
    grid.append(...columns);
    box.replaceChildren(names, grid, score);
    box.hidden = false;
    const done = game.revealed >= N_PACKETS;
    if (done && game.record) {
      const record = game.record;
      game.record = null;
      record();
    }
    $("game-controls").hidden = false;
    $("reveal-next").hidden = $("reveal-all").hidden = done;
    $("next-deal").hidden = $("rematch").hidden = !done;
    if (done) renderMatch();
  }

  async function nextDeal() {
    clearGame();
    if (matchOver(session().match)) newMatch();
    await Q.session.advance("play");
  }

  function rematch() {
    clearGame();
    Q.layout.setArrangement([]);
  }

  function init() {
    $("play-btn").addEventListener("click", play);
    $("player").addEventListener("change", () => {
      describe();
      const m = session().match;
      if (m && m.opponent !== $("player").value) $("match-score").textContent = t("match_change");
    });
    $("new-match").addEventListener("click", newMatch);
    $("reveal-next").addEventListener("click", () => {
      stopTimer();
      revealOne();
    });
    $("reveal-all").addEventListener("click", skip);
    $("next-deal").addEventListener("click", nextDeal);
    $("rematch").addEventListener("click", rematch);
    Q.hooks.changed.push(() => {
      if (game && game.revealed >= N_PACKETS && state.view === "play") clearGame();
    });
    Q.hooks.language.push(() => {
      fillPlayers();
      renderMatch();
      renderGame();
    });
  }

  Q.table = { init, renderMatch };
})();
