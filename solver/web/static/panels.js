// The panels of the Quintet page: suggest, the equilibrium (with its chart), play the computer,
// grade your arrangement.
"use strict";
(function () {
  const Q = window.Quintet;
  const { N_PACKETS, PACKET_SIZE, state, t, categoryName, holdingsBody, showMessage } = Q;
  const { evaluate } = Q;
  const { sortCards, runJob, working, useArrangement, percent, arrangementRow } = Q;
  const $ = (id) => document.getElementById(id);

  // ---------- suggest ----------
  function renderSuggestion() {
    const box = $("suggest-result");
    const doc = state.lastSuggest;
    if (!doc) return;
    const status = doc.status === "optimal" && doc.gap <= 1e-9 ? t("optimal") : `${t("feasible")} (${t("gap")} ${doc.gap.toPrecision(3)})`;
    const lines = document.createElement("p");
    lines.id = "suggest-summary";
    lines.textContent = `${t("value")}: ${doc.value.toFixed(4)} (${t("bound")} ${doc.bound.toFixed(4)}); ${status}; ${t("time")} ${doc.seconds.toFixed(2)} s`;
    const table = document.createElement("table");
    table.id = "suggest-table";
    table.innerHTML = `<tr><th>${t("position")}</th><th></th><th>${t("win")}</th><th>${t("tie")}</th><th>${t("loss")}</th></tr>`;
    doc.arrangement.forEach((packet, i) => {
      const p = doc.positions[i];
      const row = table.insertRow();
      row.dataset.position = String(i + 1);
      for (const text of [String(i + 1), sortCards(packet).map((c) => Cards.label(c, state.lang)).join(" "), percent(p.win), percent(p.tie), percent(p.loss)]) {
        row.insertCell().textContent = text;
      }
    });
    const use = document.createElement("button");
    use.type = "button";
    use.id = "apply-suggestion";
    use.textContent = t("use");
    use.addEventListener("click", () => useArrangement(doc.arrangement));
    box.replaceChildren(lines, table, use);
  }

  async function suggest() {
    const body = { ...holdingsBody(), against: $("against").value, objective: $("objective").value };
    if (body.against === "equilibrium") body.payoff = $("payoff").value;
    try {
      state.lastSuggest = await runJob("suggest", body, working);
      renderSuggestion();
    } catch (error) {
      showMessage(error.message);
    }
  }

  // ---------- equilibrium ----------
  async function renderEquilibrium() {
    const box = $("equilibrium-result");
    const doc = state.lastEquilibrium;
    if (!doc) return;
    const strategies = [...doc.strategy.strategies].sort((a, b) => b.probability - a.probability);
    const summary = document.createElement("p");
    summary.id = "eq-summary";
    summary.textContent =
      `${t("game_value")}: ${doc.value.toPrecision(6)}; ${t("exploitability")}: ${doc.gap.toPrecision(3)}; ` +
      // Looked up in the book: nothing was iterated now, so no iterations or time are shown.
      (doc.book && doc.book.from_book
        ? `${t("from_book")}. `
        : `${t("iterations")}: ${doc.iterations}, ${doc.converged ? t("converged") : t("not_converged")}; ${t("time")} ${doc.seconds.toFixed(2)} s. `) +
      t("arrangements", { n: strategies.length });
    const table = document.createElement("table");
    table.id = "eq-table";
    table.innerHTML = `<tr><th>${t("probability")}</th><th>${t("arrangement")}</th><th></th></tr>`;
    const shown = strategies.slice(0, 10);
    shown.forEach((item, k) => {
      const row = table.insertRow();
      row.className = "eq-row";
      row.dataset.probability = String(item.probability);
      row.insertCell().textContent = percent(item.probability);
      row.insertCell().appendChild(arrangementRow(item.arrangement));
      const use = document.createElement("button");
      use.type = "button";
      use.className = "use-eq";
      use.dataset.index = String(k);
      use.textContent = t("use_short");
      use.addEventListener("click", () => useArrangement(item.arrangement));
      row.insertCell().appendChild(use);
    });
    const caption = document.createElement("p");
    caption.className = "hint";
    caption.textContent = t("chart");
    box.replaceChildren(summary, caption, await strengthChart(shown), table);
    box.querySelector("#eq-chart").setAttribute("aria-label", t("chart"));
  }

  // Strength at each position of each arrangement: one line per arrangement.
  async function strengthChart(strategies) {
    const width = 360, height = 160, left = 40, bottom = 24, top = 8;
    const svg = Cards.node("svg", { id: "eq-chart", viewBox: `0 0 ${width} ${height}`, width: String(width), height: String(height), role: "img" });
    const evaluations = await Promise.all(strategies.map((item) => Promise.all(item.arrangement.map(evaluate))));
    const maxStrength = evaluations.length ? evaluations[0][0].max_strength : 1;
    const x = (i) => left + (i * (width - left - 12)) / (N_PACKETS - 1);
    const y = (s) => top + (1 - s / maxStrength) * (height - top - bottom);
    svg.appendChild(Cards.node("line", { x1: left, y1: y(0), x2: width - 8, y2: y(0), stroke: "#999" }));
    svg.appendChild(Cards.node("line", { x1: left, y1: y(0), x2: left, y2: top, stroke: "#999" }));
    for (let i = 0; i < N_PACKETS; i++) {
      svg.appendChild(Cards.node("text", { x: x(i), y: height - 6, "font-size": "11", "text-anchor": "middle" }, String(i + 1)));
    }
    svg.appendChild(Cards.node("text", { x: 4, y: y(maxStrength) + 10, "font-size": "10" }, String(maxStrength)));
    svg.appendChild(Cards.node("text", { x: 4, y: y(0), "font-size": "10" }, "0"));
    evaluations.forEach((hands, k) => {
      const points = hands.map((hand, i) => `${x(i).toFixed(1)},${y(hand.strength).toFixed(1)}`).join(" ");
      const line = Cards.node("polyline", {
        points, fill: "none", stroke: `hsl(${(k * 67) % 360} 60% 40%)`, "stroke-width": (1 + 8 * strategies[k].probability).toFixed(2),
        "stroke-opacity": "0.8", class: "eq-line",
      });
      line.appendChild(Cards.node("title", {}, percent(strategies[k].probability)));
      svg.appendChild(line);
    });
    return svg;
  }

  async function equilibrium() {
    const body = { ...holdingsBody(), payoff: $("payoff").value };
    const progress = (status) =>
      status.progress ? t("eq_progress", { i: status.progress.iteration, g: status.progress.gap.toPrecision(3), t: (status.elapsed || 0).toFixed(1) }) : working(status);
    try {
      state.lastEquilibrium = await runJob("equilibrium", body, progress);
      await renderEquilibrium();
    } catch (error) {
      showMessage(error.message);
    }
  }

  // ---------- play ----------
  async function play() {
    if (state.packets.flat().length !== N_PACKETS * PACKET_SIZE) {
      showMessage(t("need_all"));
      return;
    }
    const arrangement = state.packets.map((packet) => packet.join(" ")).join(" | ");
    const body = { ...holdingsBody(), opponent: $("player").value, arrangement };
    try {
      const result = await runJob("play", body, working);
      state.game = { result, revealed: 0 };
      renderGame();
    } catch (error) {
      showMessage(error.message);
    }
  }

  function renderGame() {
    const box = $("play-result");
    if (!state.game) return;
    const { result, revealed } = state.game;
    const doc = result.score;
    const table = document.createElement("table");
    table.id = "game-table";
    table.innerHTML = `<tr><th>${t("position")}</th><th>${t("you")}</th><th>${t("opponent")} (${result.opponent})</th><th></th></tr>`;
    let mine = 0, theirs = 0;
    const points = doc.rules.position_points;
    for (let i = 0; i < doc.outcomes.length; i++) {
      const row = table.insertRow();
      row.id = "reveal-" + (i + 1);
      row.dataset.position = String(i + 1);
      row.insertCell().textContent = `${i + 1} (${points[i]})`;
      if (i < revealed) {
        const outcome = doc.outcomes[i];
        if (outcome > 0) mine += points[i];
        if (outcome < 0) theirs += points[i];
        row.dataset.outcome = outcome > 0 ? "win" : outcome < 0 ? "loss" : "tie";
        for (const side of [0, 1]) {
          const cell = row.insertCell();
          cell.appendChild(arrangementRow([doc.arrangements[side][i]]));
          const combo = document.createElement("span");
          combo.className = "combo";
          evaluate(doc.arrangements[side][i]).then((hand) => {
            combo.textContent = categoryName(hand.category);
            combo.dataset.category = hand.category;
          });
          cell.appendChild(combo);
        }
        row.insertCell().textContent = t(outcome > 0 ? "result_win" : outcome < 0 ? "result_loss" : "result_tie");
      } else {
        row.dataset.outcome = "";
        for (let k = 0; k < 3; k++) row.insertCell().textContent = "?";
      }
    }
    const scoreLine = document.createElement("p");
    scoreLine.id = "running-score";
    scoreLine.dataset.mine = String(mine);
    scoreLine.dataset.theirs = String(theirs);
    scoreLine.textContent = `${t("score")}: ${mine} : ${theirs}`;
    const children = [table, scoreLine];
    if (revealed < doc.outcomes.length) {
      const next = document.createElement("button");
      next.type = "button";
      next.id = "reveal-next";
      next.textContent = t("reveal_next");
      next.addEventListener("click", () => {
        state.game.revealed += 1;
        renderGame();
      });
      const all = document.createElement("button");
      all.type = "button";
      all.id = "reveal-all";
      all.textContent = t("reveal_all");
      all.addEventListener("click", () => {
        state.game.revealed = doc.outcomes.length;
        renderGame();
      });
      children.push(next, all);
    } else {
      const final = document.createElement("p");
      final.id = "final-score";
      final.dataset.result = doc.result;
      final.dataset.points = doc.points.join(":");
      const margin = Math.abs(doc.margin);
      final.textContent = `${doc.points[0]} : ${doc.points[1]} — ` + (doc.margin > 0 ? t("final_win", { m: margin }) : doc.margin < 0 ? t("final_loss", { m: margin }) : t("final_draw"));
      children.push(final);
    }
    box.replaceChildren(...children);
  }

  // ---------- grade ----------
  function laidArrangement() {
    if (state.packets.flat().length !== N_PACKETS * PACKET_SIZE) {
      showMessage(t("need_all"));
      return null;
    }
    return state.packets.map((packet) => packet.join(" ")).join(" | ");
  }

  async function grade() {
    const arrangement = laidArrangement();
    if (!arrangement) return;
    try {
      const doc = await runJob("grade", { ...holdingsBody(), arrangement }, working);
      if (laidArrangement() === arrangement) state.lastGrade = doc; // else the packets moved meanwhile
      renderGrade();
    } catch (error) {
      showMessage(error.message);
    }
  }

  function line(id, text) {
    const p = document.createElement("p");
    if (id) p.id = id;
    p.textContent = text;
    return p;
  }

  const labels = (codes) => codes.map((code) => Cards.label(code, state.lang)).join(" ");

  function changeLine(change) {
    const [i, j] = change.positions;
    const move = change.kind === "swap_packets"
      ? t("swap_packets", { i, j })
      : t("exchange", { given: labels(change.given), taken: labels(change.taken), i, j });
    const p = line("grade-change", `${t("suggested_change")}: ${move} → ${t("new_loss", { x: change.equilibrium_loss.toFixed(3) })}`);
    p.dataset.kind = change.kind;
    p.dataset.loss = String(change.equilibrium_loss);
    const use = document.createElement("button");
    use.type = "button";
    use.id = "apply-change";
    use.textContent = t("use");
    use.addEventListener("click", () => useArrangement(change.arrangement));
    return [p, arrangementRow(change.arrangement), use];
  }

  function renderGrade() {
    const box = $("grade-result");
    const doc = state.lastGrade;
    if (!doc) return;
    const verdict = line("grade-verdict",
      `${t("verdict")}: ${(I18N[state.lang].verdicts || I18N.en.verdicts)[doc.verdict]}; ${t("equilibrium_loss")} ${doc.equilibrium_loss.toFixed(3)} ${t("points")}`);
    verdict.dataset.verdict = doc.verdict;
    verdict.dataset.loss = String(doc.equilibrium_loss);
    const punished = line("grade-exploitability", t("punished_by", { x: doc.exploitability.toFixed(3) }) + ":");
    punished.dataset.exploitability = String(doc.exploitability);
    const children = [verdict, punished, arrangementRow(doc.punishing)];
    if (doc.change) children.push(...changeLine(doc.change));
    else if (doc.equilibrium_loss > 0) children.push(line("grade-change", `${t("suggested_change")}: ${t("no_change")}`));
    if (doc.book) {
      const source = line("grade-source", t(doc.book.from_book ? "from_book" : "solved_stored"));
      source.className = "hint";
      children.push(source);
    }
    box.replaceChildren(...children);
  }

  Q.panels = { renderSuggestion, renderEquilibrium, renderGame, renderGrade, suggest, equilibrium, play, grade };
})();
