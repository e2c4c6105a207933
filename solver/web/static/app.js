// The Quintet page's core: state, words, the server, jobs, the URL and the three views
// (play at the table, train, analyse).  The packets are laid out in layout.js; the session
// (history, review queue, rating) is session.js; the views are table.js, trainer.js, panels.js.
"use strict";
(function () {
  const N_PACKETS = 5;
  const PACKET_SIZE = 5;
  const POLL_MS = 150;
  const VIEWS = ["play", "train", "analysis", "duel"];
  const $ = (id) => document.getElementById(id);

  const state = {
    lang: "en",
    view: "play",
    seed: 1,
    mode: "mirror",
    aceLow: false,
    flushBeats: false,
    cardsText: null, // entered cards (null: dealt from the seed)
    opponentText: null,
    dealt: true,
    holding: [],
    opponent: [],
    packets: [[], [], [], [], []],
    selected: 0,
    job: null, // the running job's id
    players: [], // GET /api/players: name, title, description
    verdicts: [], // the verdict bands: verdict, below (points), words
    recommended: "house",
  };
  const hooks = { changed: [], language: [], dealt: [] };

  // ---------- words ----------
  function t(key, values) {
    let text = (I18N[state.lang] || I18N.en)[key];
    if (text === undefined) text = I18N.en[key] || key;
    for (const [name, value] of Object.entries(values || {})) text = text.split("{" + name + "}").join(value);
    return text;
  }
  const categoryName = (key) => (I18N[state.lang].category || {})[key] || key;
  const verdictName = (key) => (I18N[state.lang].verdicts || I18N.en.verdicts)[key] || key;
  const playerInfo = (name) => state.players.find((p) => p.name === name);
  const playerTitle = (name) => {
    const info = playerInfo(name);
    return info ? info.title[state.lang] : name;
  };

  function translatePage() {
    document.documentElement.lang = state.lang;
    document.title = t("title");
    for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
    for (const element of document.querySelectorAll("[data-i18n-label]")) {
      element.setAttribute("aria-label", t(element.dataset.i18nLabel));
    }
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
    }
    // Links to the other pages carry the language (they open in it).
    for (const link of document.querySelectorAll("a[data-page]")) link.href = `${link.dataset.page}?lang=${state.lang}`;
  }

  // ---------- the server ----------
  async function api(method, path, body, headers) {
    // The server answers errors in the page's language.
    const options = { method, headers: { "Accept-Language": state.lang, ...(headers || {}) } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    // The browser's own network error is English: the page's words instead.
    const response = await fetch(path, options).catch(() => {
      throw new Error(t("offline"));
    });
    const data = await response.json().catch(() => ({ detail: response.statusText }));
    // 422: a value the page's own controls cannot make (the page's words, not the validator's).
    if (response.status === 422) throw new Error(t("bad_value"));
    // message: the error in the page's language and words (detail: the library's English).
    if (!response.ok) {
      // No message in the page's language (a busy or stopping server, a lost job): the page's own words.
      const key = "status_" + response.status; // status_404, status_429, status_503...
      const known = !data.message && I18N.en[key] ? t(key) : null;
      const error = new Error(data.message || known || (typeof data.detail === "string" ? data.detail : response.statusText));
      error.status = response.status; // the duel stops waiting on a room that is gone (404) or not its (403)
      throw error;
    }
    return data;
  }

  function rulesBody() {
    return { mode: state.mode, ace_low_straight: state.aceLow, flush_beats_full_house: state.flushBeats };
  }

  function holdingsBody() {
    const body = { ...rulesBody(), seed: state.seed };
    if (!state.dealt) {
      body.cards = state.cardsText;
      if (state.mode === "independent") body.opponent_cards = state.opponentText;
    }
    return body;
  }

  // A message is a toast fixed to the viewport (on a phone the page's top is often off-screen):
  // kind "error" (the default) or "ok" (a confirmation); a tap or the next action dismisses it.
  function showMessage(text, kind) {
    const box = $("message");
    box.textContent = text || "";
    box.dataset.kind = text ? kind || "error" : "";
  }

  // Bad input: the old hand and its results must not look accepted, so they are taken away.
  function rejectDeal(error) {
    state.holding = [];
    state.opponent = [];
    state.packets = [[], [], [], [], []];
    $("table").hidden = true;
    Quintet.layout.setArrangement([]);
    for (const hook of hooks.dealt) hook();
    showMessage(error.message);
  }

  // ---------- the URL: old links (?seed=&arr=&lang=&mode=) open the analysis view ----------
  function writeUrl() {
    const params = new URLSearchParams();
    params.set("lang", state.lang);
    params.set("view", state.view);
    if (state.view === "duel" && state.room) params.set("room", state.room);
    if (state.view === "analysis") {
      params.set("mode", state.mode);
      if (state.aceLow) params.set("ace", "1");
      if (state.flushBeats) params.set("flush", "1");
      params.set("seed", String(state.seed));
      if (!state.dealt) {
        params.set("cards", state.cardsText);
        if (state.opponentText) params.set("opp", state.opponentText);
      }
      if (state.packets.some((p) => p.length)) params.set("arr", state.packets.map((p) => p.join("")).join("_"));
    }
    history.replaceState(null, "", "?" + params.toString());
  }

  function readUrl() {
    const params = new URLSearchParams(location.search);
    state.lang = QuintetStore.language(params); // the link's, else kept, else the browser's
    const view = params.get("view");
    state.view = VIEWS.includes(view) ? view : params.get("seed") || params.get("cards") ? "analysis" : "play";
    state.mode = params.get("mode") === "independent" ? "independent" : "mirror";
    state.aceLow = params.get("ace") === "1";
    state.flushBeats = params.get("flush") === "1";
    const seed = parseInt(params.get("seed") || "", 10);
    state.seed = Number.isFinite(seed) && seed >= 0 ? seed : null;
    state.cardsText = params.get("cards");
    state.opponentText = params.get("opp");
    state.dealt = !state.cardsText;
    // grade=1 (the Analyze page's links): grade the arrangement once it is laid out.
    state.gradeOnOpen = params.get("grade") === "1";
    state.room = params.get("room"); // a duel room's code (the link the other player got)
    const arrangement = params.get("arr");
    return arrangement ? arrangement.split("_").map((p) => p.match(/../g) || []) : null;
  }

  function syncControls() {
    $("seed").value = state.seed === null ? "" : state.seed;
    $("mode").value = state.mode;
    $("ace-low").checked = state.aceLow;
    $("flush-beats").checked = state.flushBeats;
    if (!state.dealt) {
      $("cards-input").value = state.cardsText || "";
      $("opponent-input").value = state.opponentText || "";
    }
  }

  // ---------- dealing ----------
  // Deals asked for one after another answer in any order: only the last one asked goes on the
  // table (a session's deal must not be replaced by an older request's, nor the duel's).
  let dealing = 0;
  const claimTable = () => ++dealing;

  async function loadHoldings(arrangement) {
    showMessage("");
    const body = holdingsBody();
    if (state.seed === null) delete body.seed;
    const ticket = claimTable();
    let data;
    try {
      data = await api("POST", "/api/holdings", body);
    } catch (error) {
      if (ticket !== dealing) return; // an older request's error says nothing of the table now
      throw error;
    }
    if (ticket !== dealing) return;
    state.seed = data.seed;
    state.holding = data.holding;
    state.opponent = data.opponent_holding;
    $("table").hidden = false;
    syncControls();
    for (const hook of hooks.dealt) hook();
    Quintet.layout.setArrangement(arrangement || [[], [], [], [], []]);
  }

  // A deal of the session (play and train views): seed and rules given.
  function dealSession(seed, rules) {
    state.seed = seed;
    state.dealt = true;
    state.cardsText = state.opponentText = null;
    state.mode = rules.discard_mode;
    state.aceLow = rules.ace_low_straight;
    state.flushBeats = rules.flush_beats_full_house;
    return loadHoldings(null);
  }

  async function dealBySeed() {
    const seed = parseInt($("seed").value, 10);
    state.seed = Number.isFinite(seed) ? seed : null;
    state.dealt = true;
    state.cardsText = state.opponentText = null;
    await loadHoldings(null).catch(rejectDeal);
  }

  async function dealByCards() {
    state.dealt = false;
    state.cardsText = $("cards-input").value.trim();
    state.opponentText = $("opponent-input").value.trim() || null;
    await loadHoldings(null).catch(rejectDeal);
  }

  // ---------- jobs: start, poll, cancel ----------
  function setBusy(busy) {
    if (!busy) state.job = null;
    // Play, Submit and Grade stay off until all 25 cards are laid out, after a job too.
    const complete = Quintet.layout.complete();
    for (const button of document.querySelectorAll("button.job")) {
      button.disabled = busy || (button.classList.contains("needs-all") && !complete);
    }
    $("progress").hidden = !busy;
    document.body.dataset.busy = String(busy);
  }

  async function runJob(kind, body, onProgress) {
    showMessage("");
    return followJob(await api("POST", "/api/jobs/" + kind, body), onProgress);
  }

  // A started job (its status), followed to its end: its document, or an error in the page's words.
  async function followJob(job, onProgress) {
    state.job = job.id;
    setBusy(true);
    try {
      for (;;) {
        const status = await api("GET", "/api/jobs/" + job.id);
        if (status.state === "done") return status.result;
        if (status.state === "cancelled") throw new Error(t("cancelled"));
        if (status.state === "timeout") throw new Error(t("timeout"));
        if (status.state === "error") throw new Error(status.message || status.error);
        if (status.state === "failed") throw new Error(t("failed", { e: status.error }));
        $("progress-text").textContent = (onProgress || working)(status);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      setBusy(false);
    }
  }

  const working = (status) => t("working", { t: (status.elapsed || 0).toFixed(1) });

  async function cancelJob() {
    if (state.job) await api("DELETE", "/api/jobs/" + state.job).catch(() => null);
  }

  function percent(x) {
    return (100 * x).toFixed(1) + "%";
  }

  function el(tag, attrs, text) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") element.className = value;
      else if (key.startsWith("data-")) element.dataset[key.slice(5).replace(/-(\w)/g, (m, c) => c.toUpperCase())] = value;
      else element.setAttribute(key, value);
    }
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function button(id, key, onClick, extra) {
    const b = el("button", { type: "button", ...(id ? { id } : {}), ...(extra || {}) }, t(key));
    b.addEventListener("click", onClick);
    return b;
  }

  // ---------- views and language ----------
  function setView(view) {
    // The duel's deal is the room's: it does not stay on the table of another view.
    if (state.view === "duel" && view !== "duel") {
      state.holding = [];
      $("table").hidden = true;
    }
    state.view = view;
    document.body.dataset.view = view;
    for (const link of document.querySelectorAll("[data-view]")) {
      if (link.dataset.view === view) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    for (const section of document.querySelectorAll("[data-views]")) {
      section.hidden = !section.dataset.views.split(" ").includes(view);
    }
    if (view === "play" || view === "train") Quintet.session.resume(view);
    if (view === "duel") Quintet.duel.shown();
    writeUrl();
  }

  function setLanguage(lang) {
    state.lang = lang;
    QuintetStore.keepLanguage(lang); // kept for the next visit and the other pages
    translatePage();
    for (const hook of hooks.language) hook();
    writeUrl();
  }

  // ---------- start ----------
  async function start() {
    const arrangement = readUrl();
    Quintet.layout.build();
    syncControls();
    translatePage();
    $("deal-seed").addEventListener("click", dealBySeed);
    $("deal-cards").addEventListener("click", dealByCards);
    for (const [id, key] of [["mode", "mode"], ["ace-low", "aceLow"], ["flush-beats", "flushBeats"]]) {
      $(id).addEventListener("change", () => {
        state[key] = id === "mode" ? $(id).value : $(id).checked;
        if (state.holding.length) loadHoldings(null).catch(rejectDeal);
        else writeUrl();
      });
    }
    $("cancel").addEventListener("click", cancelJob);
    $("message").addEventListener("click", () => showMessage(""));
    for (const b of document.querySelectorAll("[data-lang]")) b.addEventListener("click", () => setLanguage(b.dataset.lang));
    for (const link of document.querySelectorAll("a[data-view]")) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        setView(link.dataset.view);
      });
    }
    try {
      const catalog = await api("GET", "/api/players");
      state.players = catalog.players;
      state.verdicts = catalog.verdicts;
      state.recommended = catalog.recommended;
    } catch (error) {
      showMessage(error.message);
    }
    for (const module of [Quintet.session, Quintet.panels, Quintet.table, Quintet.trainer, Quintet.duel]) module.init();
    translatePage();
    for (const hook of hooks.language) hook();
    document.body.dataset.ready = "true";
    let laid = false;
    if (state.view === "analysis" && (state.seed !== null || state.cardsText)) {
      laid = await loadHoldings(arrangement).then(() => true, (error) => rejectDeal(error));
    }
    setView(state.view);
    if (laid && state.gradeOnOpen && Quintet.layout.complete()) await Quintet.panels.grade({ reveal: true });
    state.gradeOnOpen = false;
  }

  window.Quintet = {
    N_PACKETS, PACKET_SIZE, state, hooks, t, categoryName, verdictName, playerInfo, playerTitle, api,
    rulesBody, holdingsBody, showMessage, runJob, followJob, claimTable, working, percent, el, button, writeUrl, dealSession,
    translatePage, layout: null, session: null, panels: null, table: null, trainer: null, duel: null,
  };
  // After every deferred script: the other modules fill their parts of Quintet.
  document.addEventListener("DOMContentLoaded", start);
})();
