// The trainer: deal after deal, lay out, submit, see the grade (verdict, loss, what the
// equilibrium plays at each position, the best single change to try); the rating (mean
// equilibrium loss over the last 20 deals, a chart with the verdict bands); the review queue.
"use strict";
(function () {
  const Q = window.Quintet;
  const { state, t } = Q;
  const $ = (id) => document.getElementById(id);
  const BAND_COLORS = { best: "#d7eedb", good: "#e6f2d5", inaccuracy: "#fbf1cf", mistake: "#f9dfc8", blunder: "#f5d0d0" };

  const session = () => Q.session.get();
  let lastGrade = null; // {doc, arrangement}: the trainer's grade of the packets as graded

  // ---------- a grade, shown (the trainer and the analysis view) ----------
  function gradeView(doc, prefix) {
    const id = (name) => (prefix || "") + name;
    const loss = doc.equilibrium_loss;
    const verdict = Q.el("p", { id: id("grade-verdict"), class: "verdict", "data-verdict": doc.verdict, "data-loss": String(loss) },
      t("verdict_line", { v: Q.verdictName(doc.verdict), x: loss.toFixed(3) }));
    // What the number is: points per deal lost against the best arrangements, on average, when
    // the opponent plays the equilibrium; not this deal's score.
    const parts = [verdict, Q.el("p", { class: "hint", id: id("grade-explained") }, t("loss_explained"))];
    const likely = doc.equilibrium[0];
    if (likely) {
      const table = Q.el("table", { class: "by-position", id: id("eq-by-position") });
      const head = table.createTHead().insertRow();
      const titles = [t("position"), t("h_yours"), t("eq_plays", { p: Q.percent(likely.probability) })];
      for (const text of titles) head.appendChild(Q.el("th", { scope: "col" }, text));
      const body = table.createTBody();
      doc.arrangement.forEach((packet, i) => {
        const row = body.insertRow();
        row.insertCell().textContent = `${t("position")} ${i + 1} (${Q.layout.POINTS[i]})`;
        // On a phone the row stacks, each cell saying what it is (data-label).
        const cells = [row.insertCell(), row.insertCell()];
        cells[0].appendChild(Q.layout.miniPacket(packet));
        cells[1].appendChild(Q.layout.miniPacket(likely.arrangement[i]));
        cells.forEach((cell, k) => {
          cell.dataset.label = titles[k + 1];
        });
      });
      parts.push(table);
    }
    const exploit = Q.el("p", { id: id("grade-exploitability"), "data-exploitability": String(doc.exploitability) },
      t("exploitability_line", { x: formatPoints(doc.exploitability) }));
    parts.push(exploit, Q.el("p", { class: "hint" }, t("exploitability_means")), Q.layout.arrangementRow(doc.punishing));
    parts.push(...changeView(doc, id));
    if (doc.book) parts.push(Q.el("p", { class: "hint", id: id("grade-source") }, t(doc.book.from_book ? "from_book" : "solved_stored")));
    return parts;
  }

  const formatPoints = (x) => (Math.abs(x - Math.round(x)) < 5e-4 ? String(Math.round(x)) : x.toFixed(3));

  function changeView(doc, id) {
    const change = doc.change;
    if (!change) return doc.equilibrium_loss > 0 ? [Q.el("p", { id: id("grade-change") }, `${t("suggested_change")}: ${t("no_change")}`)] : [];
    const [i, j] = change.positions;
    const labels = (codes) => codes.map((code) => Cards.label(code, state.lang)).join(" ");
    const move = change.kind === "swap_packets"
      ? t("swap_packets", { i, j })
      : t("exchange", { given: labels(change.given), taken: labels(change.taken), i, j });
    const line = Q.el("p", { id: id("grade-change"), "data-kind": change.kind, "data-loss": String(change.equilibrium_loss) },
      `${t("suggested_change")}: ${move} → ${t("new_loss", { x: change.equilibrium_loss.toFixed(3) })}`);
    const tryIt = Q.button(id("apply-change"), "try_it", () => Q.layout.setArrangement(change.arrangement));
    return [line, Q.layout.arrangementRow(change.arrangement), tryIt];
  }

  // ---------- a hint before submitting: where the equilibrium puts its strongest packet ----------
  // The margin equilibrium is what the grade measures against (and the server keeps it, so the
  // grade after a hint costs no second solve).  Its most likely arrangement's strongest packet
  // and its position are shown: what to build, and where; not the whole answer.
  let lastHint = null; // {seed, line}: the hint of the deal on the table

  async function hint() {
    const seed = state.seed;
    try {
      const doc = await Q.runJob("equilibrium", { ...Q.holdingsBody(), payoff: "margin" });
      const likely = [...doc.strategy.strategies].sort((a, b) => b.probability - a.probability)[0];
      const hands = await Promise.all(likely.arrangement.map(Q.layout.evaluate));
      const at = hands.reduce((best, hand, i) => (hand.strength > hands[best].strength ? i : best), 0);
      if (state.seed !== seed) return; // another deal meanwhile
      lastHint = { at, category: hands[at].category, probability: likely.probability };
      renderHint();
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  function renderHint() {
    const line = $("hint-text");
    if (!lastHint) {
      line.textContent = "";
      line.dataset.position = "";
      return;
    }
    line.dataset.position = String(lastHint.at + 1);
    line.textContent = t("hint_line", {
      c: Q.categoryName(lastHint.category), i: lastHint.at + 1, p: Q.layout.POINTS[lastHint.at], q: Q.percent(lastHint.probability),
    });
  }

  // ---------- submitting a deal ----------
  async function submit() {
    if (!Q.layout.complete()) {
      Q.showMessage(t("need_all"));
      return;
    }
    const arrangement = Q.layout.arrangementText();
    try {
      const doc = await Q.runJob("grade", { ...Q.holdingsBody(), arrangement });
      if (Q.layout.arrangementText() !== arrangement) return; // the packets moved meanwhile
      lastGrade = { doc, arrangement };
      const first = !session().current.graded;
      if (first) Q.session.record(doc, null);
      renderGrade();
      $("train-next").focus();
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  function renderGrade() {
    const box = $("train-result");
    if (!lastGrade) {
      box.replaceChildren();
      return;
    }
    box.replaceChildren(...gradeView(lastGrade.doc, ""));
  }

  async function next() {
    lastGrade = null;
    renderGrade();
    await Q.session.advance("train");
  }

  // ---------- progress: the deal, the rating, the queue ----------
  function renderProgress() {
    const s = session();
    if (!s) return;
    const current = s.current;
    const line = $("train-deal");
    line.dataset.review = String(Boolean(current && current.review));
    line.dataset.deal = current ? String(current.deal) : "";
    line.textContent = current
      ? t("train_deal", { k: current.deal + 1, n: s.deals, seed: s.seed + current.deal }) + (current.review ? ` · ${t("review_tag")}` : "")
      : t("session_done", { n: s.deals });
    // The next deal once this one is graded (a grade undone by "try it" still counts).
    $("train-next").hidden = !(current && current.graded);
    renderRating();
    renderQueue();
  }

  function bandOf(loss) {
    for (const band of state.verdicts) if (band.below === null || loss < band.below || (band.verdict === "best" && loss <= band.below)) return band.verdict;
    return "blunder";
  }

  function renderRating() {
    const series = Q.session.ratingSeries();
    const rating = $("rating");
    if (!series.length) {
      rating.textContent = t("rating_none");
      rating.dataset.rating = "";
      $("rating-chart-box").replaceChildren();
      return;
    }
    const value = series[series.length - 1];
    rating.dataset.rating = String(value);
    const n = Math.min(series.length, Q.session.RATING_DEALS);
    rating.textContent = t("rating_line", { x: value.toFixed(3), n, v: Q.verdictName(bandOf(value)) });
    $("rating-chart-box").replaceChildren(chart(series), legend());
  }

  function chart(series) {
    const width = 340, height = 150, left = 34, right = 8, top = 8, bottom = 22;
    const limits = state.verdicts.filter((b) => b.below !== null).map((b) => b.below);
    const top_ = Math.max(2.5, Math.min(6, Math.max(...series) * 1.1));
    // A square-root scale: the narrow bands near 0 (best, good) stay readable.
    const y = (v) => top + (1 - Math.sqrt(Math.min(v, top_) / top_)) * (height - top - bottom);
    const x = (i) => left + (series.length === 1 ? 0 : (i * (width - left - right)) / (series.length - 1));
    const svg = Cards.node("svg", { id: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("rating_chart") });
    let low = 0;
    for (const band of state.verdicts) {
      const high = band.below === null ? top_ : Math.min(band.below, top_);
      if (high > low) {
        svg.appendChild(Cards.node("rect", { x: left, y: y(high), width: width - left - right, height: y(low) - y(high), fill: BAND_COLORS[band.verdict], class: "band", "data-verdict": band.verdict }));
      }
      low = Math.max(low, high);
    }
    // The scale: the band limits, then whole points above the highest limit up to the chart's top.
    // The square-root scale crowds the top, so a label too near one kept is left out.
    const highest = Math.max(0, ...limits);
    const ticks = limits.filter((v) => v > 0.01 && v < top_);
    const clear = (v) => ticks.every((w) => Math.abs(y(v) - y(w)) >= 11);
    for (const v of [Number(top_.toFixed(1)), ...Array.from({ length: Math.floor(top_) }, (_, k) => Math.floor(top_) - k)]) {
      if (v > highest && !ticks.includes(v) && clear(v)) ticks.push(v);
    }
    for (const tick of ticks) {
      svg.appendChild(Cards.node("text", { x: left - 4, y: y(tick) + 4, "font-size": "10", "text-anchor": "end", class: "tick", "data-value": String(tick) }, String(tick)));
    }
    svg.appendChild(Cards.node("text", { x: left - 4, y: y(0), "font-size": "10", "text-anchor": "end" }, "0"));
    const points = series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.appendChild(Cards.node("polyline", { points, fill: "none", stroke: "#1f5f3f", "stroke-width": "2.5", class: "rating-line" }));
    series.forEach((v, i) => svg.appendChild(Cards.node("circle", { cx: x(i), cy: y(v), r: "3", fill: "#1f5f3f" })));
    svg.appendChild(Cards.node("text", { x: left, y: height - 6, "font-size": "10" }, t("chart_deals", { n: series.length })));
    return svg;
  }

  function legend() {
    const list = Q.el("ul", { class: "legend", id: "rating-legend" });
    let low = 0;
    for (const band of state.verdicts) {
      const item = Q.el("li", {});
      const swatch = Q.el("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.background = BAND_COLORS[band.verdict];
      const range = band.verdict === "best" ? "0" : band.below === null ? `≥ ${low}` : low ? `${low}–${band.below}` : `< ${band.below}`;
      item.append(swatch, `${Q.verdictName(band.verdict)}: ${range}`);
      list.appendChild(item);
      if (band.below !== null && band.verdict !== "best") low = band.below;
    }
    return list;
  }

  function renderQueue() {
    const s = session();
    const list = $("review-queue");
    list.dataset.count = String(s.queue.length);
    list.replaceChildren(...[...s.queue].sort((a, b) => a.due - b.due).map((e) => {
      const wait = Math.max(0, e.due - Q.session.graded());
      const item = Q.el("li", { class: "review-item", "data-deal": String(e.deal), "data-due": String(e.due) },
        t("review_item", { k: e.deal + 1, seed: s.seed + e.deal, w: wait ? t("in_deals", { n: wait }) : t("due_now") }));
      return item;
    }));
    $("review-empty").hidden = s.queue.length > 0;
  }

  function init() {
    $("submit-btn").addEventListener("click", submit);
    $("hint-btn").addEventListener("click", hint);
    $("train-next").addEventListener("click", next);
    Q.hooks.changed.push(() => {
      if (lastGrade && Q.layout.arrangementText() !== lastGrade.arrangement) {
        lastGrade = null;
        renderGrade();
      }
    });
    Q.hooks.dealt.push(() => {
      lastGrade = null;
      lastHint = null;
      renderGrade();
      renderHint();
    });
    Q.hooks.language.push(() => {
      renderGrade();
      renderHint();
      renderProgress();
    });
  }

  Q.trainer = { init, renderProgress, gradeView };
})();
