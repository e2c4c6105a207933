// The analysis view: suggest an arrangement, the equilibrium (with its chart and legend), grade
// any arrangement of any deal.  Results are cleared when a new run starts.
"use strict";
(function () {
  const Q = window.Quintet;
  const { N_PACKETS, state, t } = Q;
  const $ = (id) => document.getElementById(id);
  const SHOWN = 10;
  let lastSuggest = null, lastEquilibrium = null, lastGrade = null;

  const points = (x) => {
    const v = Math.abs(x) < 5e-4 ? 0 : x;
    return v.toFixed(3);
  };
  const lineColor = (k) => `hsl(${(k * 67) % 360} 60% 38%)`;
  const gapWords = (gap, win) => (gap <= 1e-6 ? t("gap_exact") : t(win ? "gap_win" : "gap_points", { x: gap.toPrecision(2) }));

  // Opponent "equilibrium" plays the payoff game: an objective is not offered with it.
  function syncObjective() {
    const equilibrium = $("against").value === "equilibrium";
    $("objective").disabled = equilibrium;
    $("objective-note").hidden = !equilibrium;
  }

  // A table's box, scrolled sideways on its own if it must (focusable, so keys scroll it).
  // On a phone each row stacks as a card, each cell saying what it is (data-label, style.css).
  const labelCells = (row, titles) => [...row.cells].forEach((cell, k) => {
    cell.dataset.label = titles[k];
  });
  const scrollBox = (key) => Q.el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t(key) });

  // ---------- suggest ----------
  function renderSuggestion() {
    const box = $("suggest-result");
    const doc = lastSuggest;
    if (!doc) return box.replaceChildren();
    const proven = doc.status === "optimal" && doc.gap <= 1e-9;
    // The value's unit follows the objective: points, or a probability (win), or a game result.
    const objective = doc.objective || "margin";
    const line = objective === "win" ? "suggest_line_win" : objective === "game" ? "suggest_line_game" : "suggest_line";
    const summary = Q.el("p", { id: "suggest-summary", "data-objective": objective },
      t(line, { v: points(doc.value), s: proven ? t("optimal") : t("feasible_gap", { g: doc.gap.toPrecision(2) }) }));
    const table = Q.el("table", { id: "suggest-table", class: "stack-table" });
    const head = table.createTHead().insertRow();
    for (const key of ["position", "packet_combo", "win", "tie", "loss", "expected_points"]) head.appendChild(Q.el("th", { scope: "col" }, t(key)));
    const body = table.createTBody();
    const titles = ["position", "packet_combo", "win", "tie", "loss", "expected_points"].map((key) => t(key));
    doc.arrangement.forEach((packet, i) => {
      const p = doc.positions[i];
      const row = body.insertRow();
      row.dataset.position = String(i + 1);
      row.insertCell().textContent = `${i + 1} (${Q.layout.POINTS[i]})`;
      const combo = row.insertCell();
      combo.className = "wide";
      combo.appendChild(Q.layout.miniPacket(packet));
      for (const value of [Q.percent(p.win), Q.percent(p.tie), Q.percent(p.loss), p.expected_points.toFixed(2)]) row.insertCell().textContent = value;
      labelCells(row, titles);
    });
    const use = Q.button("apply-suggestion", "use", () => Q.layout.setArrangement(doc.arrangement));
    box.replaceChildren(summary, scrollBox("suggest"), use);
    box.querySelector(".scroll").appendChild(table);
  }

  async function suggest() {
    // Equilibrium play takes the payoff (of the Equilibrium panel), never an objective.
    const body = { ...Q.holdingsBody(), against: $("against").value };
    if (body.against === "equilibrium") body.payoff = $("payoff").value;
    else body.objective = $("objective").value;
    lastSuggest = null;
    renderSuggestion();
    try {
      lastSuggest = await Q.runJob("suggest", body);
      renderSuggestion();
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  // ---------- equilibrium ----------
  async function renderEquilibrium() {
    const box = $("equilibrium-result");
    const doc = lastEquilibrium;
    if (!doc) return box.replaceChildren();
    const strategies = [...doc.strategy.strategies].sort((a, b) => b.probability - a.probability);
    const shown = strategies.slice(0, SHOWN);
    const source = doc.book && doc.book.from_book ? t("from_book") : t("solved_in", { i: doc.iterations, s: doc.seconds.toFixed(1) });
    // The win payoff's value is a probability (a draw counted half), not points.
    const win = doc.payoff === "win" || doc.payoff === "game_result";
    const summary = Q.el("p", { id: "eq-summary", "data-payoff": win ? "win" : "margin" },
      t(win ? "eq_line_win" : "eq_line", { v: points(doc.value), g: gapWords(doc.gap, win), n: strategies.length, src: source }));
    const table = Q.el("table", { id: "eq-table", class: "stack-table" });
    const head = table.createTHead().insertRow();
    for (const key of ["line", "probability", "arrangement", "action"]) head.appendChild(Q.el("th", { scope: "col" }, t(key)));
    const body = table.createTBody();
    const titles = ["line", "probability", "arrangement", "action"].map((key) => t(key));
    shown.forEach((item, k) => {
      const row = body.insertRow();
      row.className = "eq-row";
      row.dataset.probability = String(item.probability);
      const key = row.insertCell();
      const swatch = Q.el("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.background = lineColor(k);
      key.append(swatch, `#${k + 1}`);
      row.insertCell().textContent = Q.percent(item.probability);
      const arrangement = row.insertCell();
      arrangement.className = "wide";
      arrangement.appendChild(Q.layout.arrangementRow(item.arrangement));
      row.insertCell().appendChild(Q.button(null, "use_short", () => Q.layout.setArrangement(item.arrangement),
        { class: "use-eq", "data-index": String(k), "aria-label": t("use_n", { n: k + 1 }) }));
      labelCells(row, titles);
    });
    const parts = [summary, Q.el("p", { class: "hint" }, t("chart")), await strengthChart(shown), scrollBox("equilibrium")];
    parts[3].appendChild(table);
    if (strategies.length > SHOWN) {
      const rest = strategies.slice(SHOWN).reduce((a, s) => a + s.probability, 0);
      parts.push(Q.el("p", { id: "eq-more" }, t("more", { n: strategies.length - SHOWN, p: Q.percent(rest) })));
    }
    if (doc.simple_strategy) parts.push(...simpleStrategy(doc.simple_strategy, win));
    if (lastEquilibrium === doc) box.replaceChildren(...parts);
  }

  // The simple strategy (max_support): its certified loss, what is proven, its arrangements.
  function simpleStrategy(simple, win) {
    const items = [...simple.strategy.strategies].sort((a, b) => b.probability - a.probability);
    const loss = win ? Q.percent(simple.exploitability) : `${points(simple.exploitability)} ${t("points")}`;
    const share = `${simple.exploitability_percent.toFixed(2)}%`;
    const line = t("simple_line", { n: items.length, x: loss, p: share, whole: t(win ? "simple_whole_win" : "simple_whole_points") });
    const proof = simple.proven ? t("simple_proven") : t("simple_found", { pool: simple.pool, k: simple.k });
    const summary = Q.el("p", { id: "simple-summary", "data-exploitability": String(simple.exploitability), "data-proven": String(simple.proven) },
      `${line} ${proof}`);
    const table = Q.el("table", { id: "simple-table", class: "stack-table" });
    const titles = ["probability", "arrangement", "action"].map((key) => t(key));
    const head = table.createTHead().insertRow();
    for (const title of titles) head.appendChild(Q.el("th", { scope: "col" }, title));
    const body = table.createTBody();
    items.forEach((item, k) => {
      const row = body.insertRow();
      row.className = "simple-row";
      row.insertCell().textContent = Q.percent(item.probability);
      const arrangement = row.insertCell();
      arrangement.className = "wide";
      arrangement.appendChild(Q.layout.arrangementRow(item.arrangement));
      row.insertCell().appendChild(Q.button(null, "use_short", () => Q.layout.setArrangement(item.arrangement),
        { class: "use-simple", "data-index": String(k), "aria-label": t("use_n", { n: k + 1 }) }));
      labelCells(row, titles);
    });
    const box = scrollBox("simple");
    box.appendChild(table);
    return [Q.el("h3", { id: "simple-title" }, t("simple_title", { k: simple.k })), summary, box];
  }

  // Strength at each position of each arrangement: one line per row of the table (same colour).
  async function strengthChart(strategies) {
    const width = 360, height = 170, left = 34, bottom = 24, top = 8;
    const svg = Cards.node("svg", { id: "eq-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("chart") });
    const evaluations = await Promise.all(strategies.map((item) => Promise.all(item.arrangement.map(Q.layout.evaluate))));
    const maxStrength = evaluations.length ? evaluations[0][0].max_strength : 1;
    const x = (i) => left + (i * (width - left - 16)) / (N_PACKETS - 1);
    const y = (s) => top + (1 - s / maxStrength) * (height - top - bottom);
    svg.appendChild(Cards.node("line", { x1: left, y1: y(0), x2: width - 8, y2: y(0), stroke: "#777" }));
    svg.appendChild(Cards.node("line", { x1: left, y1: y(0), x2: left, y2: top, stroke: "#777" }));
    for (let i = 0; i < N_PACKETS; i++) {
      svg.appendChild(Cards.node("text", { x: x(i), y: height - 6, "font-size": "11", "text-anchor": "middle" }, String(i + 1)));
    }
    svg.appendChild(Cards.node("text", { x: left - 4, y: y(maxStrength) + 10, "font-size": "10", "text-anchor": "end" }, t("strong")));
    svg.appendChild(Cards.node("text", { x: left - 4, y: y(0), "font-size": "10", "text-anchor": "end" }, "0"));
    evaluations.forEach((hands, k) => {
      const pts = hands.map((hand, i) => `${x(i).toFixed(1)},${y(hand.strength).toFixed(1)}`).join(" ");
      const line = Cards.node("polyline", {
        points: pts, fill: "none", stroke: lineColor(k), "stroke-width": (1.5 + 8 * strategies[k].probability).toFixed(2),
        "stroke-opacity": "0.85", class: "eq-line",
      });
      line.appendChild(Cards.node("title", {}, `#${k + 1}: ${Q.percent(strategies[k].probability)}`));
      svg.appendChild(line);
    });
    return svg;
  }

  async function equilibrium() {
    const body = { ...Q.holdingsBody(), payoff: $("payoff").value };
    if ($("max-support").value) body.max_support = Number($("max-support").value);
    const progress = (status) =>
      status.progress ? t("eq_progress", { i: status.progress.iteration, g: status.progress.gap.toPrecision(3), t: (status.elapsed || 0).toFixed(1) }) : Q.working(status);
    lastEquilibrium = null;
    renderEquilibrium();
    try {
      lastEquilibrium = await Q.runJob("equilibrium", body, progress);
      await renderEquilibrium();
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  // ---------- grade any arrangement ----------
  // reveal: scroll the grade into view when it is shown (a deal opened from the Analyze page).
  async function grade(options) {
    if (!Q.layout.complete()) {
      Q.showMessage(t("need_all"));
      return;
    }
    const arrangement = Q.layout.arrangementText();
    lastGrade = null;
    renderGrade();
    try {
      const doc = await Q.runJob("grade", { ...Q.holdingsBody(), arrangement });
      if (Q.layout.arrangementText() === arrangement) lastGrade = { doc, arrangement };
      renderGrade();
      if (lastGrade && options && options.reveal) $("grade-result").scrollIntoView({ block: "start" });
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  function renderGrade() {
    const box = $("grade-result");
    box.replaceChildren(...(lastGrade ? Q.trainer.gradeView(lastGrade.doc, "a-") : []));
  }

  function init() {
    $("suggest-btn").addEventListener("click", suggest);
    $("against").addEventListener("change", syncObjective);
    syncObjective();
    $("equilibrium-btn").addEventListener("click", equilibrium);
    $("grade-btn").addEventListener("click", () => grade());
    Q.hooks.changed.push(() => {
      if (lastGrade && Q.layout.arrangementText() !== lastGrade.arrangement) {
        lastGrade = null;
        renderGrade();
      }
    });
    Q.hooks.dealt.push(() => {
      lastSuggest = lastEquilibrium = lastGrade = null;
      renderSuggestion();
      renderEquilibrium();
      renderGrade();
    });
    Q.hooks.language.push(() => {
      renderSuggestion();
      renderEquilibrium();
      renderGrade();
    });
  }

  Q.panels = { init, grade };
})();
