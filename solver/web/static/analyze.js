// The Analyze page: a history (a file chosen or dropped, or this browser's session
// history) graded by an analyze job of the server's queue (POST /api/jobs/analyze, polled:
// deals graded of the total, cancellable); the summary, the deals (sortable, filterable, each
// opening on the main page's table) and the leaks.
//
// The session history is the main page's session (store.js: one storage key): every graded
// deal as the line `quintet train --history` writes, which quintet analyze reads.
"use strict";
(function () {
  const A = window.Analysis;
  const { t, el, number, percent } = A;
  const $ = (id) => document.getElementById(id);
  const MAX_BODY = 64 * 1024; // the server's request limit (bytes)
  const VERDICTS = ["best", "good", "inaccuracy", "mistake", "blunder"];
  // The fields of a history line that grading reads (the rest is dropped before sending).
  const KEEP = ["rules", "seed", "deal_seed", "holding", "opponent_holding", "arrangement",
    "opponent_arrangement", "mode", "position_points", "ace_low_straight", "flush_beats_full_house"];
  const COLUMNS = [
    { key: "line", label: "col_line", sortable: true },
    { key: "seed", label: "col_seed", sortable: true },
    { key: "loss", label: "col_loss", sortable: true },
    { key: "verdict", label: "col_verdict", sortable: true },
    { key: "change", label: "col_change", sortable: false },
    { key: "recovers", label: "col_recovers", sortable: true },
    { key: "deal", label: "col_deal", sortable: false },
  ];

  const view = { doc: null, name: "", key: "loss", order: "desc", verdicts: new Set(VERDICTS), minLoss: null };
  let clock = null;
  let running = null; // the analyze job under way: its id

  // JSON Lines made smaller, line for line (so the line numbers the server reports stay).
  function compact(text) {
    if (!text.trimStart().startsWith("{")) return text;
    return text.split(/\r\n|\n|\r/).map((line) => {
      let record;
      try {
        record = JSON.parse(line);
      } catch (error) {
        return line;
      }
      if (!record || typeof record !== "object" || Array.isArray(record)) return line;
      const out = {};
      for (const key of KEEP) if (key in record) out[key] = record[key];
      if (out.arrangement == null && record.grade && typeof record.grade === "object" && "arrangement" in record.grade) {
        out.arrangement = record.grade.arrangement;
      }
      return JSON.stringify(out).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
    }).join("\n");
  }

  function status(text, running) {
    $("status-text").textContent = text || "";
    $("status-progress").textContent = "";
    $("status-time").textContent = "";
    clearInterval(clock);
    if (running) {
      const started = Date.now();
      clock = setInterval(() => {
        $("status-time").textContent = t("seconds", { t: Math.round((Date.now() - started) / 1000) });
      }, 1000);
    }
  }

  function message(...parts) {
    $("message").replaceChildren(...parts);
  }

  async function analyzeText(text, name) {
    message();
    if (!text.trim()) {
      message(t("empty_file"));
      return;
    }
    const history = compact(text);
    const body = JSON.stringify({ history, top: 10 });
    const size = new Blob([body]).size;
    if (size > MAX_BODY) {
      message(t("too_large", { kb: Math.ceil(size / 1024), max: MAX_BODY / 1024 }));
      return;
    }
    for (const control of document.querySelectorAll("#source button, #source input")) control.disabled = true;
    status(t("grading", { name: name === null ? t("session_name") : name }), true);
    document.body.dataset.state = "grading";
    const cancel = $("cancel-analysis");
    cancel.hidden = cancel.disabled = false;
    try {
      const done = await A.job("analyze", { history, top: 10 }, (job) => {
        running = job.id;
        const p = job.progress;
        $("status-progress").textContent = job.state === "queued" ? t("queued")
          : p && p.total ? t("graded_of", { done: p.done, total: p.total }) : "";
        $("status-progress").dataset.done = p ? p.done : "";
      });
      view.doc = { ...done.result, warnings: done.warnings };
      view.name = name;
      document.body.dataset.state = "done";
      status("");
      render();
    } catch (error) {
      document.body.dataset.state = "failed";
      status("");
      // The last file's results must not look like this file's.
      view.doc = null;
      for (const id of ["summary", "deals", "leaks"]) $(id).hidden = true;
      const tooLarge = error.status === 413;
      if (tooLarge) message(t("too_large", { kb: Math.ceil(size / 1024), max: MAX_BODY / 1024 }));
      else if (error.status === "cancelled" || error.status === "timeout") message(t(error.status));
      else message(t("failed"), " ", A.errorText(error, true));
    } finally {
      running = null;
      cancel.hidden = true;
      for (const control of document.querySelectorAll("#source button, #source input")) control.disabled = false;
    }
  }

  function readFile(file) {
    if (!file) return;
    file.text().then((text) => analyzeText(text, file.name), (error) => message(t("failed"), " ", A.serverText(String(error))));
  }

  // ---------- the summary ----------
  function intervalText(block) {
    if (!block) return t("no_trend");
    const [low, high] = block.interval;
    return `${number(block.mean)} ${t("points")} (${t("interval")} [${number(low)}, ${number(high)}]; ${t("deals_n", { n: block.deals })})`;
  }

  function item(term, ...description) {
    return [el("dt", { text: term }), el("dd", {}, ...description)];
  }

  function renderSummary() {
    const doc = view.doc, s = doc.summary;
    const verdicts = el("ul", { class: "chips", id: "verdict-counts" }, VERDICTS.map((v) =>
      el("li", { class: "chip", dataset: { verdict: v, count: s.verdicts[v] } }, `${A.verdict(v)}: ${s.verdicts[v]}`)));
    const trend = el("span", { id: "trend" },
      `${t("first_half")}: ${intervalText(s.trend.first_half)}; ${t("second_half")}: ${intervalText(s.trend.second_half)}`);
    const list = el("dl", { class: "facts" },
      item(t("history_name"), view.name === null ? t("session_name") : A.serverText(view.name)),
      item(t("deals_graded"), el("span", { id: "deals-graded", dataset: { deals: s.deals } }, t("deals_of", { n: s.deals, read: doc.deals_read }))),
      item(t("mean_loss"), el("span", { id: "mean-loss", dataset: { mean: s.loss ? s.loss.mean : "" } }, intervalText(s.loss))),
      item(t("verdicts_title"), verdicts),
      item(t("trend"), trend));
    const parts = [list];
    if (doc.interrupted) parts.push(el("p", { class: "warning", text: t("interrupted") }));
    if (doc.bad_lines.length) {
      parts.push(el("h3", { text: `${t("bad_lines")}: ${doc.bad_lines.length}` }),
        el("ul", { id: "bad-lines" }, doc.bad_lines.map((b) =>
          el("li", { dataset: { line: b.line } }, `${t("line_n", { n: b.line })}: `, A.serverText(b.reason)))));
    }
    $("summary-body").replaceChildren(...parts);
  }

  // ---------- the deals ----------
  function sortValue(row, key) {
    if (key === "verdict") return VERDICTS.indexOf(row.verdict);
    if (key === "recovers") return row.change ? row.change.recovers : 0;
    if (key === "seed") return row.seed === null ? -1 : row.seed;
    return row[key];
  }

  function shownRows() {
    const sign = view.order === "desc" ? -1 : 1;
    return view.doc.rows
      .filter((r) => view.verdicts.has(r.verdict) && (view.minLoss === null || r.loss >= view.minLoss - 1e-12))
      .sort((a, b) => sign * (sortValue(a, view.key) - sortValue(b, view.key)) || a.line - b.line);
  }

  function changeText(row) {
    if (!row.change) return t("kinds.none");
    const positions = row.change.positions.length ? ` (${row.change.positions.join(", ")})` : "";
    return t("kinds." + row.change.kind) + positions;
  }

  function dealCell(row) {
    if (!row.url) return el("span", { class: "hint", text: t("no_link") });
    return el("a", { href: A.pageUrl(row.url), class: "deal-link", "aria-label": t("open_line", { n: row.line }) }, t("open"));
  }

  function renderHead() {
    $("deal-head").replaceChildren(...COLUMNS.map((column) => {
      const label = t(column.label);
      const sorted = column.key === view.key;
      const th = el("th", { scope: "col", "aria-sort": column.sortable ? (sorted ? (view.order === "desc" ? "descending" : "ascending") : "none") : null });
      if (!column.sortable) {
        th.textContent = label;
        return th;
      }
      const button = el("button", { type: "button", class: "sort", dataset: { sort: column.key }, "aria-label": t("sort_column", { c: label }) },
        label, el("span", { class: "arrow", "aria-hidden": "true", text: sorted ? (view.order === "desc" ? " ▼" : " ▲") : "" }));
      button.addEventListener("click", () => {
        view.order = view.key === column.key && view.order === "desc" ? "asc" : "desc";
        view.key = column.key;
        renderDeals();
      });
      th.append(button);
      return th;
    }));
  }

  function renderDeals() {
    $("sort-key").value = view.key;
    $("sort-order").value = view.order;
    renderHead();
    const rows = shownRows();
    const labels = Object.fromEntries(COLUMNS.map((c) => [c.key, t(c.label)]));
    $("deal-rows").replaceChildren(...rows.map((row) => {
      const cells = {
        line: String(row.line),
        seed: row.seed === null ? "–" : String(row.seed),
        loss: number(row.loss),
        verdict: el("span", { class: "verdict", dataset: { verdict: row.verdict } }, A.verdict(row.verdict)),
        change: changeText(row),
        recovers: row.change ? number(row.change.recovers) : "–",
        deal: dealCell(row),
      };
      return el("tr", { dataset: { line: row.line, loss: row.loss, verdict: row.verdict } },
        COLUMNS.map((c) => el(c.key === "line" ? "th" : "td", { "data-label": labels[c.key], scope: c.key === "line" ? "row" : null, class: "col-" + c.key }, cells[c.key])));
    }));
    $("showing").textContent = t("showing", { shown: rows.length, n: view.doc.rows.length });
    $("showing").dataset.shown = rows.length;
  }

  function renderVerdictBoxes() {
    $("verdict-boxes").replaceChildren(...VERDICTS.map((v) => {
      const box = el("input", { type: "checkbox", id: "show-" + v, value: v, checked: view.verdicts.has(v) });
      box.addEventListener("change", () => {
        if (box.checked) view.verdicts.add(v);
        else view.verdicts.delete(v);
        renderDeals();
      });
      return el("label", { class: "check", for: "show-" + v }, box, el("span", { text: A.verdict(v) }));
    }));
  }

  // ---------- the leaks ----------
  function leakTable(id, title, columns, rows) {
    return el("div", { class: "leak" },
      el("h3", { id: id + "-title", text: title }),
      el("table", { id, class: "leak-table cards-on-phone", "aria-labelledby": id + "-title" },
        el("thead", {}, el("tr", {}, columns.map((c) => el("th", { scope: "col", text: t(c[0]) })))),
        el("tbody", {}, rows.map((row) => el("tr", { dataset: row.data },
          columns.map((c, i) => el(i === 0 ? "th" : "td", { scope: i === 0 ? "row" : null, "data-label": t(c[0]) }, c[1](row))))))));
  }

  function renderLeaks() {
    const leaks = view.doc.leaks;
    const loss = (r) => number(r.loss), share = (r) => percent(r.share, 0);
    $("leaks-note").textContent = t("leaks_note", { total: number(view.doc.summary.total_loss) });
    $("leak-tables").replaceChildren(
      leakTable("leak-positions", t("leaks_positions"), [
        ["col_position", (r) => String(r.position)], ["col_loss", loss], ["col_share", share],
        ["col_concede", (r) => percent(r.concede, 0)], ["col_eq_concede", (r) => percent(r.equilibrium_concede, 0)],
      ], leaks.positions.map((r) => ({ ...r, data: { position: r.position, share: r.share } }))),
      leakTable("leak-combinations", t("leaks_combinations"), [
        ["col_combination", (r) => A.combination(r.combination)], ["col_loss", loss], ["col_share", share],
        ["col_laid", (r) => String(r.laid)], ["col_eq_laid", (r) => number(r.equilibrium_laid, 1)],
      ], leaks.combinations.map((r) => ({ ...r, data: { combination: r.combination, share: r.share } }))),
      leakTable("leak-changes", t("leaks_changes"), [
        ["col_kind", (r) => t("kinds." + r.kind)], ["col_deals", (r) => String(r.deals)], ["col_loss", loss],
        ["col_share", share], ["col_recovers", (r) => number(r.recovers)],
      ], leaks.changes.map((r) => ({ ...r, data: { kind: r.kind, share: r.share } }))));
  }

  function render() {
    if (!view.doc) return;
    for (const id of ["summary", "deals", "leaks"]) $(id).hidden = false;
    renderSummary();
    renderVerdictBoxes();
    renderDeals();
    renderLeaks();
  }

  // ---------- wiring ----------
  $("history-file").addEventListener("change", (event) => readFile(event.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    readFile(event.dataTransfer.files[0]);
  });
  $("use-session").addEventListener("click", () => {
    const text = window.QuintetStore.sessionLines().join("\n");
    if (!text.trim()) message(t("no_session"));
    else analyzeText(text, null);
  });
  $("cancel-analysis").addEventListener("click", () => {
    if (running) A.cancelJob(running);
  });
  $("min-loss").addEventListener("input", (event) => {
    const value = parseFloat(event.target.value);
    view.minLoss = Number.isFinite(value) ? value : null;
    renderDeals();
  });
  $("sort-key").addEventListener("change", (event) => {
    view.key = event.target.value;
    renderDeals();
  });
  $("sort-order").addEventListener("change", (event) => {
    view.order = event.target.value;
    renderDeals();
  });
  $("reset-filters").addEventListener("click", () => {
    view.verdicts = new Set(VERDICTS);
    view.minLoss = null;
    $("min-loss").value = "";
    renderVerdictBoxes();
    renderDeals();
  });
  A.onLanguage.push(render);
  A.translate();
  document.body.dataset.ready = "1";
})();
