// The Study page: POST /api/report over the server's solution book (mode, payoff, the
// "where" filter, all kept in the URL) and its charts as inline SVG, each with a legend:
// the concession rate by position with its interval, the combinations laid there, the
// support sizes, the top arrangement's probability and (independent mode) the game value.
"use strict";
(function () {
  const A = window.Analysis;
  const { t, el, number, percent } = A;
  const $ = (id) => document.getElementById(id);
  const COLORS = {
    high_card: "#9e9e9e", pair: "#c7b299", two_pair: "#e0a96d", three_of_a_kind: "#d4763b",
    straight: "#6a9fd4", flush: "#2e6fb0", full_house: "#5aa469", four_of_a_kind: "#2f7d4a",
    straight_flush: "#8e3b8e",
  };
  const CATEGORY_KEYS = Object.keys(I18N.en.category);
  let doc = null;

  const categoryKey = (english) => CATEGORY_KEYS.find((k) => I18N.en.category[k] === english || k === english.replace(/ /g, "_")) || english;

  function readParams() {
    const params = new URLSearchParams(location.search);
    $("mode").value = params.get("mode") === "independent" ? "independent" : "mirror";
    $("payoff").value = params.get("payoff") === "win" ? "win" : "margin";
    $("where").value = params.get("where") || "";
  }

  async function run() {
    loadWhole();
    const body = { mode: $("mode").value, payoff: $("payoff").value };
    const where = $("where").value.trim();
    if (where) body.where = where;
    A.writeParams({ mode: body.mode, payoff: body.payoff, where });
    $("message").replaceChildren();
    $("status").textContent = t("reporting");
    $("run-report").disabled = true;
    document.body.dataset.state = "reporting";
    try {
      doc = await A.post("/api/report", body);
      doc.where = where;
      document.body.dataset.state = "done";
      render();
    } catch (error) {
      document.body.dataset.state = "failed";
      doc = null;
      $("report").hidden = true;
      // No book: the page's words (never the server's path); other errors come in the page's language.
      $("message").replaceChildren(error.code === "no_book" ? t("no_book") : A.errorText(error));
    } finally {
      $("status").textContent = "";
      $("run-report").disabled = false;
    }
  }

  function meanText(block, scale = 1, digits = 3) {
    const [low, high] = block.interval;
    return t("mean_interval", { m: number(scale * block.mean, digits), lo: number(scale * low, digits), hi: number(scale * high, digits) });
  }

  function sampleNote(block) {
    return `${t("effective", { n: number(block.effective_deals, 1) })}; ${meanText(block)}`;
  }

  function concedeFigure(d = doc, id = "chart-concede") {
    const bars = d.positions.map((p) => ({
      label: String(p.position), value: p.concede.mean, low: p.concede.interval[0], high: p.concede.interval[1],
      title: `${t("position_n", { n: p.position })}: ${meanText(p.concede, 100, 1)} %`,
    }));
    const chart = A.barChart({ bars, label: t("chart_concede"), axisLabel: t("axis_position"), intervals: true });
    const first = d.positions[0].concede;
    const note = first.effective_deals === undefined ? t("bootstrap_note") : t("effective", { n: number(first.effective_deals, 1) });
    return A.figure(id, t("chart_concede"), chart, [
      { kind: "bar", key: "rate", text: t("legend_rate") },
      { kind: "whisker", key: "interval", text: t("legend_interval") },
    ], note);
  }

  // Shares are numbers (a book's report) or figures with their interval (the summary's).
  const shareOf = (v) => (typeof v === "number" ? v : v.mean);

  function combinationsFigure(d = doc, id = "chart-combinations") {
    const present = new Set();
    const rows = d.positions.map((p) => ({
      label: t("position_n", { n: p.position }),
      parts: Object.entries(p.combinations).map(([english, value]) => {
        const share = shareOf(value);
        const key = categoryKey(english);
        present.add(key);
        return { key, share, name: A.combination(english) };
      }),
    }));
    const chart = A.stackedChart({ rows, label: t("chart_combinations"), colors: COLORS });
    const items = CATEGORY_KEYS.filter((k) => present.has(k)).reverse()
      .map((k) => ({ kind: "swatch", key: k, color: COLORS[k], text: I18N[A.state.lang].category[k] }));
    return A.figure(id, t("chart_combinations"), chart, items);
  }

  // At most MAX_BINS bins: neighbours merged (the support sizes run to hundreds).
  const MAX_BINS = 20;
  function merged(histogram) {
    const k = Math.ceil(histogram.length / MAX_BINS);
    if (k <= 1) return histogram;
    const out = [];
    for (let i = 0; i < histogram.length; i += k) {
      const group = histogram.slice(i, i + k);
      out.push({ low: group[0].low, high: group[group.length - 1].high, share: group.reduce((a, b) => a + b.share, 0) });
    }
    return out;
  }

  const sizeLabel = (b) => {
    const low = Math.ceil(b.low), high = Math.floor(b.high);
    return low === high ? String(low) : `${low}–${high}`;
  };

  function histogramFigure(id, block, title, label) {
    const bins = merged(block.histogram.map((b) => ({ ...b, share: b.share === undefined ? b.mean : b.share })))
      .map((b) => ({ ...b, label: label(b) }));
    const chart = A.histogram({ bins, label: title, axisLabel: "", summary: block });
    const note = block.effective_deals === undefined ? meanText(block, 1, 1) : sampleNote(block);
    return A.figure(id, title, chart, [
      { kind: "bar", key: "share", text: t("legend_share") },
      { kind: "mean", key: "mean", text: t("legend_mean") },
    ], note);
  }

  // ---------- the whole game: the summary shipped with the package (no book needed) ----------
  let whole = null;
  let wholeAsked = 0; // only the last request's answer is shown

  async function loadWhole() {
    const asked = ++wholeAsked;
    whole = null;
    $("whole").hidden = true;
    if ($("mode").value !== "mirror") return; // the summary is of mirror deals
    let answer;
    try {
      answer = await A.post("/api/summary", { payoff: $("payoff").value });
    } catch (error) {
      if (asked !== wholeAsked) return;
      $("whole").hidden = false;
      $("whole-text").replaceChildren();
      $("whole-charts").replaceChildren();
      $("whole-warning").hidden = false;
      $("whole-warning").textContent = t("whole_damaged", { why: error.message });
      return;
    }
    if (asked !== wholeAsked) return;
    whole = answer;
    renderWhole();
  }

  function hardestTable(block) {
    const row = (cells, tag) => el("tr", {}, cells.map((c) => el(tag, { text: String(c) })));
    const deals = [
      ...block.hardest.support.slice(0, 5).map((d) => [t("hardest_support"), d]),
      ...block.hardest.slowest.slice(0, 5).map((d) => [t("hardest_slowest"), d]),
    ];
    // Scrolled sideways on a phone: focusable and named, so a keyboard reaches it too.
    return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("hardest_title") }, el("table", { id: "whole-hardest", class: "data" },
      el("caption", { text: t("hardest_title") }),
      el("thead", {}, row([t("col_why"), t("col_removed"), t("col_support"), t("col_seconds")], "th")),
      el("tbody", {}, deals.map(([why, d]) => row([why, d.removed, d.support, number(d.seconds, 2)], "td")))));
  }

  function renderWhole() {
    if (!whole) return;
    const block = whole.payoffs[0];
    const s = whole.sample;
    $("whole").hidden = false;
    $("whole-text").replaceChildren(t("whole_text", {
      n: block.classes.toLocaleString(A.state.lang), total: s.classes_total.toLocaleString(A.state.lang),
      seed: s.seed === null ? "–" : s.seed, r: s.bootstrap.replicates,
    }));
    $("whole-text").dataset.classes = block.classes;
    $("whole-text").dataset.payoff = block.payoff;
    const problems = whole.warnings || [];
    $("whole-warning").hidden = !problems.length;
    $("whole-warning").textContent = problems.length ? t("whole_damaged", { why: problems.join("; ") }) : "";
    const pure = el("p", { id: "whole-pure", text: t("whole_pure", { share: meanText(block.pure, 100, 2) }) });
    const time = el("p", { id: "whole-seconds", text: t("whole_seconds", { s: meanText(block.seconds, 1, 3) }) });
    $("whole-charts").replaceChildren(
      concedeFigure(block, "whole-concede"),
      combinationsFigure(block, "whole-combinations"),
      histogramFigure("whole-support", block.support, t("chart_support"), sizeLabel),
      pure, time, hardestTable(block));
  }

  function render() {
    if (!doc) return;
    $("report").hidden = false;
    const s = doc.sample;
    // Four significant digits, as `quintet report` prints it (2.118e-10%).
    const coverage = s.coverage === null ? "–" : A.precise(100 * s.coverage, 4);
    $("sample-text").replaceChildren(
      t("sample_text", { deals: s.deals, read: s.read, coverage }), " ",
      t("filter_text"), doc.where ? el("code", { text: doc.where }) : t("all_deals"));
    $("sample-text").dataset.deals = s.deals;
    $("sample-text").dataset.coverage = s.coverage;
    const low = s.coverage !== null && s.coverage < 0.01;
    $("coverage-warning").hidden = !low;
    $("coverage-warning").textContent = low ? t("low_coverage", { coverage }) : "";
    if (!doc.positions.length) {
      $("charts").replaceChildren(el("p", { id: "no-match", text: t("no_match") }));
      return;
    }
    const figures = [
      concedeFigure(),
      combinationsFigure(),
      histogramFigure("chart-support", doc.support, t("chart_support"), sizeLabel),
      histogramFigure("chart-top", doc.top_probability, t("chart_top"), (b) => `${number(b.low, 2)}–${number(Math.min(1, b.high), 2)}`),
    ];
    if (doc.value) {
      figures.push(histogramFigure("chart-value", doc.value, t("chart_value"), (b) => number((b.low + b.high) / 2, 2)));
    }
    $("charts").replaceChildren(...figures);
  }

  $("report-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  readParams();
  A.onLanguage.push(render, renderWhole);
  A.translate();
  document.body.dataset.ready = "1";
  run();
})();
