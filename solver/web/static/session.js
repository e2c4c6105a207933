// The session, kept in the browser (localStorage): a series of seeded deals (deal k has seed
// S + k, as in `quintet train`), every graded deal as the line `quintet train --history` writes,
// the review queue, the match, and the rating.  Exported and imported as that JSON Lines file.
"use strict";
(function () {
  const Q = window.Quintet;
  const { state, t } = Q;
  const $ = (id) => document.getElementById(id);
  const Store = window.QuintetStore; // the one storage key every page reads (store.js)
  const FORMAT = "quintet-train/1";
  const INTERVALS = [1, 3, 7, 15]; // further deals before a badly played deal comes back
  const GOOD = ["best", "good"];
  const RATING_DEALS = 20;
  const DEFAULT_RULES = { position_points: [3, 4, 5, 6, 7], discard_mode: "mirror", ace_low_straight: false, flush_beats_full_house: false };
  // The grade document's fields that are not the grade itself (its format, grade_report and the book).
  const NOT_GRADE = ["format", "seed", "dealt", "holding", "opponent_holding", "rules", "book"];
  // Fields Python writes as floats ("0.0", not "0").
  const FLOATS = new Set(["game_value", "value", "equilibrium_loss", "certificate_gap", "win_loss", "exploitability", "best", "gap", "probability"]);

  let session = null;

  function fresh(seed, deals, rules) {
    return { seed, deals, rules: rules || DEFAULT_RULES, next: 0, current: null, records: [], queue: [], match: null };
  }

  function save() {
    if (Store.saveSession(session)) Q.showMessage(t("storage_full"));
  }

  const load = () => Store.session();

  const header = () => ({ format: FORMAT, seed: session.seed, deals: session.deals, rules: session.rules });
  const graded = () => session.records.length;

  // ---------- recording a graded deal ----------
  function gradePart(doc) {
    const grade = {};
    for (const [key, value] of Object.entries(doc)) if (!NOT_GRADE.includes(key)) grade[key] = value;
    return grade;
  }

  // The graded deal `session.current`: its history line, then the review queue.
  function record(doc, game) {
    const k = session.current.deal;
    const line = { ...header(), deal: k, deal_seed: session.seed + k, grade: gradePart(doc) };
    session.records.push({ line, review: session.current.review, game: game || null });
    const count = graded();
    const good = GOOD.includes(doc.verdict);
    const entry = session.queue.find((e) => e.deal === k);
    if (entry && good) session.queue.splice(session.queue.indexOf(entry), 1);
    else if (entry) {
      entry.step = Math.min(entry.step + 1, INTERVALS.length - 1);
      entry.due = count + INTERVALS[entry.step];
    } else if (!good) session.queue.push({ deal: k, step: 0, due: count + INTERVALS[0] });
    session.current.graded = true;
    save();
    render();
  }

  // The next deal: in training a review that is due, else the series' next new deal (null: all
  // played).  A match (view "play") only deals new deals: its games never repeat a deal.
  function nextDeal(view) {
    const due = view === "play" ? null : session.queue.filter((e) => e.due <= graded()).sort((a, b) => a.due - b.due)[0];
    // With the new deals all dealt, the trainer deals the queue's reviews before it ends: a
    // session never ends with a review still queued.
    const last = view === "play" || session.next < session.deals ? null : [...session.queue].sort((a, b) => a.due - b.due)[0];
    const review = due || last;
    if (review) session.current = { deal: review.deal, review: true, graded: false };
    else if (session.next < session.deals) session.current = { deal: session.next++, review: false, graded: false };
    else session.current = null;
    save();
    return session.current;
  }

  async function dealCurrent() {
    if (!session.current) {
      Q.showMessage(t("session_done", { n: session.deals }), "ok");
      return false;
    }
    await Q.dealSession(session.seed + session.current.deal, session.rules);
    render();
    return true;
  }

  // Entering the play or train view: the current deal (or the next) is on the table; at the
  // card table, a review deal the trainer dealt is left for the trainer (it stays queued).
  async function resume(view) {
    const current = session.current;
    if (!current || current.graded || (view === "play" && current.review)) nextDeal(view);
    const seed = session.current ? session.seed + session.current.deal : null;
    if (seed !== null && (state.seed !== seed || !state.dealt || !state.holding.length)) {
      await dealCurrent().catch((error) => Q.showMessage(error.message));
    }
    render();
  }

  async function advance(view) {
    nextDeal(view);
    await dealCurrent().catch((error) => Q.showMessage(error.message));
  }

  // ---------- the rating: mean equilibrium loss over the last 20 graded deals ----------
  function ratingSeries() {
    const losses = session.records.map((r) => r.line.grade.equilibrium_loss);
    return losses.map((_, i) => {
      const window = losses.slice(Math.max(0, i + 1 - RATING_DEALS), i + 1);
      return window.reduce((a, b) => a + b, 0) / window.length;
    });
  }

  // ---------- export and import: the JSON Lines of `quintet train --history` ----------
  function pyNumber(value, key) {
    if (Number.isInteger(value)) return FLOATS.has(key) ? value.toFixed(1) : String(value);
    if (value !== 0 && Math.abs(value) < 1e-4) return value.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
    return String(value);
  }

  // JSON as Python's json.dumps writes it (", " and ": ", ASCII only, floats as floats).
  function pyJson(value, key) {
    if (value === null) return "null";
    if (typeof value === "number") return pyNumber(value, key);
    if (typeof value === "boolean") return String(value);
    if (typeof value === "string") return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
    if (Array.isArray(value)) return "[" + value.map((v) => pyJson(v, key)).join(", ") + "]";
    return "{" + Object.entries(value).map(([k, v]) => JSON.stringify(k) + ": " + pyJson(v, k)).join(", ") + "}";
  }

  // Each deal once (its first grade), in deal order: the file `quintet train --resume` continues.
  function historyText() {
    const first = new Map();
    for (const r of session.records) if (!first.has(r.line.deal)) first.set(r.line.deal, r.line);
    return [...first.keys()].sort((a, b) => a - b).map((k) => pyJson(first.get(k)) + "\n").join("");
  }

  function parseHistory(text) {
    const lines = text.split(/\r?\n/).filter((l) => l.trim());
    if (!lines.length) throw new Error(t("import_empty"));
    const records = lines.map((l, i) => {
      let line;
      try {
        line = JSON.parse(l);
      } catch (error) {
        throw new Error(t("import_bad_line", { n: i + 1 }));
      }
      const ok = line && line.format === FORMAT && Number.isInteger(line.seed) && Number.isInteger(line.deals) &&
        Number.isInteger(line.deal) && line.deal >= 0 && line.deal < line.deals && line.deal_seed === line.seed + line.deal &&
        line.rules && line.grade && typeof line.grade.verdict === "string" && typeof line.grade.equilibrium_loss === "number";
      if (!ok) throw new Error(t("import_bad_line", { n: i + 1 }));
      if (i && (line.seed !== lines.first.seed || line.deals !== lines.first.deals || JSON.stringify(line.rules) !== JSON.stringify(lines.first.rules))) {
        throw new Error(t("import_other_series", { n: i + 1 }));
      }
      if (!i) lines.first = line;
      return line;
    });
    return records;
  }

  function importHistory(text) {
    const lines = parseHistory(text);
    const first = lines[0];
    session = fresh(first.seed, first.deals, first.rules);
    for (const line of lines) {
      session.current = { deal: line.deal, review: false };
      record({ ...line.grade });
    }
    session.next = Math.max(...lines.map((l) => l.deal)) + 1;
    session.current = null;
    save();
  }

  function exportHistory() {
    // A data: link (the page's Content-Security-Policy lets nothing else be fetched back).
    const link = $("history-download");
    link.href = "data:application/x-ndjson;charset=utf-8," + encodeURIComponent(historyText());
    link.download = `quintet-train-${session.seed}.jsonl`;
    link.hidden = false;
    link.click();
  }

  // ---------- the session panel: settings and the history table ----------
  function render() {
    if (!session) return;
    $("session-seed").value = String(session.seed);
    $("session-deals").value = String(session.deals);
    const where = $("session-where");
    where.dataset.graded = String(graded());
    where.textContent = t("session_where", { seed: session.seed, k: Math.min(session.next, session.deals), n: session.deals, g: graded() });
    const table = Q.el("table", { id: "history-table" });
    const head = table.createTHead().insertRow();
    for (const key of ["h_deal", "h_yours", "h_theirs", "h_score", "h_loss"]) head.appendChild(Q.el("th", { scope: "col" }, t(key)));
    const body = table.createTBody();
    session.records.slice(-12).reverse().forEach((r) => {
      const row = body.insertRow();
      row.className = "history-row";
      row.dataset.deal = String(r.line.deal);
      row.dataset.verdict = r.line.grade.verdict;
      row.insertCell().textContent = `${r.line.deal + 1} (${t("seed_short")} ${r.line.deal_seed})` + (r.review ? ` · ${t("review_tag")}` : "");
      row.insertCell().appendChild(Q.layout.arrangementRow(r.line.grade.arrangement));
      const theirs = row.insertCell();
      if (r.game) theirs.append(Q.el("span", { class: "who" }, Q.playerTitle(r.game.opponent)), Q.layout.arrangementRow(r.game.theirs));
      else theirs.textContent = "—";
      row.insertCell().textContent = r.game ? `${r.game.points[0]} : ${r.game.points[1]}` : "—";
      row.insertCell().textContent = `${r.line.grade.equilibrium_loss.toFixed(2)} · ${Q.verdictName(r.line.grade.verdict)}`;
    });
    // The loss column's number explained where it is shown (a won deal can still lose points).
    const explained = Q.el("p", { class: "hint", id: "history-loss-explained" }, t("loss_explained"));
    explained.hidden = graded() === 0;
    $("history").replaceChildren(table, explained);
    $("history-empty").hidden = graded() > 0;
    table.hidden = graded() === 0;
    Q.trainer.renderProgress();
  }

  function startNew() {
    const seed = parseInt($("session-seed").value, 10);
    const deals = parseInt($("session-deals").value, 10);
    if (!(Number.isInteger(seed) && seed >= 0 && Number.isInteger(deals) && deals >= 1)) {
      Q.showMessage(t("session_bad"));
      return;
    }
    session = fresh(seed, deals, DEFAULT_RULES);
    save();
    resume(state.view);
  }

  function init() {
    session = load() || fresh(Math.floor(Math.random() * 1e9), 100, DEFAULT_RULES);
    save();
    $("new-session").addEventListener("click", startNew);
    $("export-history").addEventListener("click", exportHistory);
    $("import-history").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      try {
        importHistory(await file.text());
        await resume(state.view);
        // After the deal is on the table (dealing clears messages): the confirmation stays.
        Q.showMessage(t("imported", { n: graded() }), "ok");
      } catch (error) {
        Q.showMessage(error.message);
      }
      event.target.value = "";
    });
    Q.hooks.language.push(render);
  }

  Q.session = {
    init, resume, advance, record, render, ratingSeries, historyText, importHistory, pyJson,
    get: () => session, save, graded, INTERVALS, GOOD, RATING_DEALS,
  };
})();
