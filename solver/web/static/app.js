// The Quintet page: deal, lay out five packets, evaluate them, run jobs; the panels
// (suggest, equilibrium, play, grade) are in panels.js.  State lives in `state` and in the URL
// (seed, mode, rules, cards, arrangement, language).
"use strict";
(function () {
  const N_PACKETS = 5;
  const PACKET_SIZE = 5;
  const POLL_MS = 200;
  const $ = (id) => document.getElementById(id);

  const state = {
    lang: "en",
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
    lastEquilibrium: null,
    lastSuggest: null,
    lastGrade: null, // the grade of the packets as they were laid out when graded
    game: null, // the play result and how many positions are revealed
  };
  const evalCache = new Map();

  // ---------- words ----------
  function t(key, values) {
    let text = (I18N[state.lang] || I18N.en)[key];
    if (text === undefined) text = I18N.en[key] || key;
    for (const [name, value] of Object.entries(values || {})) text = text.replace("{" + name + "}", value);
    return text;
  }
  const categoryName = (key) => (I18N[state.lang].category || {})[key] || key;

  function translatePage() {
    document.documentElement.lang = state.lang;
    document.title = t("title");
    for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
    }
    $("player-description").textContent = I18N[state.lang].player_desc[$("player").value] || "";
  }

  // ---------- the server ----------
  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    const data = await response.json().catch(() => ({ detail: response.statusText }));
    if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
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

  function showMessage(text) {
    $("message").textContent = text || "";
  }

  // ---------- the URL ----------
  function writeUrl() {
    const params = new URLSearchParams();
    params.set("lang", state.lang);
    params.set("mode", state.mode);
    if (state.aceLow) params.set("ace", "1");
    if (state.flushBeats) params.set("flush", "1");
    params.set("seed", String(state.seed));
    if (!state.dealt) {
      params.set("cards", state.cardsText);
      if (state.opponentText) params.set("opp", state.opponentText);
    }
    if (state.packets.some((p) => p.length)) params.set("arr", state.packets.map((p) => p.join("")).join("_"));
    history.replaceState(null, "", "?" + params.toString());
  }

  function readUrl() {
    const params = new URLSearchParams(location.search);
    state.lang = params.get("lang") === "ru" ? "ru" : "en";
    state.mode = params.get("mode") === "independent" ? "independent" : "mirror";
    state.aceLow = params.get("ace") === "1";
    state.flushBeats = params.get("flush") === "1";
    const seed = parseInt(params.get("seed") || "", 10);
    state.seed = Number.isFinite(seed) && seed >= 0 ? seed : null;
    state.cardsText = params.get("cards");
    state.opponentText = params.get("opp");
    state.dealt = !state.cardsText;
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
  async function loadHoldings(arrangement) {
    showMessage("");
    const body = holdingsBody();
    if (state.seed === null) delete body.seed;
    const data = await api("POST", "/api/holdings", body);
    state.seed = data.seed;
    state.holding = data.holding;
    state.opponent = data.opponent_holding;
    state.packets = [[], [], [], [], []];
    state.selected = 0;
    state.game = null;
    if (arrangement) {
      const free = new Set(state.holding);
      arrangement.slice(0, N_PACKETS).forEach((packet, i) => {
        for (const code of packet.slice(0, PACKET_SIZE)) {
          if (free.delete(code)) state.packets[i].push(code);
        }
      });
      state.selected = Math.max(0, state.packets.findIndex((p) => p.length < PACKET_SIZE));
    }
    $("table").hidden = false;
    $("analysis").hidden = false;
    $("suggest-result").replaceChildren();
    $("equilibrium-result").replaceChildren();
    $("play-result").replaceChildren();
    syncControls();
    changed();
  }

  async function dealBySeed() {
    const seed = parseInt($("seed").value, 10);
    state.seed = Number.isFinite(seed) ? seed : null;
    state.dealt = true;
    state.cardsText = state.opponentText = null;
    await loadHoldings(null).catch((error) => showMessage(error.message));
  }

  async function dealByCards() {
    state.dealt = false;
    state.cardsText = $("cards-input").value.trim();
    state.opponentText = $("opponent-input").value.trim() || null;
    await loadHoldings(null).catch((error) => showMessage(error.message));
  }

  // ---------- laying out packets ----------
  const inHand = () => {
    const laid = new Set(state.packets.flat());
    return state.holding.filter((code) => !laid.has(code));
  };

  function nextOpen(from) {
    for (let k = 0; k < N_PACKETS; k++) {
      const i = (from + k) % N_PACKETS;
      if (state.packets[i].length < PACKET_SIZE) return i;
    }
    return from;
  }

  function takeOut(code) {
    for (const packet of state.packets) {
      const at = packet.indexOf(code);
      if (at >= 0) packet.splice(at, 1);
    }
  }

  function moveTo(code, target) {
    // target: a packet index or "hand"
    if (!state.holding.includes(code)) return;
    if (target === "hand") {
      takeOut(code);
    } else {
      if (state.packets[target].includes(code)) return;
      if (state.packets[target].length >= PACKET_SIZE) {
        showMessage(t("cards_of", { n: PACKET_SIZE }));
        return;
      }
      takeOut(code);
      state.packets[target].push(code);
      if (state.packets[target].length >= PACKET_SIZE) state.selected = nextOpen(target);
    }
    state.game = null;
    $("play-result").replaceChildren();
    changed();
  }

  function place(code) {
    const target = state.packets[state.selected].length < PACKET_SIZE ? state.selected : nextOpen(state.selected);
    moveTo(code, target);
  }

  function changed() {
    if (state.lastGrade) {
      state.lastGrade = null; // a grade is of the packets graded, not of these
      $("grade-result").replaceChildren();
    }
    renderTable();
    writeUrl();
    evaluatePackets();
  }

  function focusCard(code) {
    const element = document.querySelector(`#hand [data-card="${code}"]`) || document.querySelector("#hand .card");
    if (element) element.focus();
  }

  function cardElement(code, zone) {
    const element = Cards.element(code, state.lang, true);
    element.addEventListener("click", (event) => {
      event.stopPropagation();
      if (zone === "hand") {
        const next = inHand()[inHand().indexOf(code) + 1];
        place(code);
        focusCard(next);
      } else {
        moveTo(code, "hand");
      }
    });
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        element.click();
      } else if (zone === "hand" && /^[1-5]$/.test(event.key)) {
        event.preventDefault();
        const next = inHand()[inHand().indexOf(code) + 1];
        moveTo(code, Number(event.key) - 1);
        focusCard(next);
      }
    });
    element.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", code);
      event.dataTransfer.effectAllowed = "move";
    });
    return element;
  }

  function dropZone(element, target) {
    element.addEventListener("dragover", (event) => {
      event.preventDefault();
      element.classList.add("over");
    });
    element.addEventListener("dragleave", () => element.classList.remove("over"));
    element.addEventListener("drop", (event) => {
      event.preventDefault();
      element.classList.remove("over");
      const code = event.dataTransfer.getData("text/plain");
      if (code) moveTo(code, target);
    });
  }

  function sortCards(codes) {
    return [...codes].sort((a, b) => Cards.cardId(b) - Cards.cardId(a));
  }

  function buildPackets() {
    const box = $("packets");
    for (let i = 0; i < N_PACKETS; i++) {
      const packet = document.createElement("div");
      packet.className = "packet dropzone";
      packet.id = "packet-" + (i + 1);
      packet.dataset.position = String(i + 1);
      packet.tabIndex = -1;
      packet.innerHTML =
        '<div class="packet-head"><span class="position"></span><span class="packet-points"></span></div>' +
        '<div class="cards packet-cards"></div>' +
        '<div class="packet-foot"><span class="combo"></span> <span class="strength"></span></div>';
      packet.addEventListener("click", () => {
        state.selected = i;
        renderTable();
      });
      dropZone(packet, i);
      box.appendChild(packet);
    }
    dropZone($("hand"), "hand");
  }

  function renderTable() {
    const hand = $("hand");
    hand.replaceChildren(...inHand().map((code) => cardElement(code, "hand")));
    const points = [3, 4, 5, 6, 7];
    state.packets.forEach((cards, i) => {
      const packet = $("packet-" + (i + 1));
      packet.classList.toggle("selected", i === state.selected);
      packet.classList.toggle("full", cards.length === PACKET_SIZE);
      packet.dataset.count = String(cards.length);
      packet.setAttribute("aria-label", `${t("position")} ${i + 1}`);
      packet.querySelector(".position").textContent = `${t("position")} ${i + 1}`;
      packet.querySelector(".packet-points").textContent = `${points[i]} ${t("points")}`;
      packet.querySelector(".packet-cards").replaceChildren(...cards.map((code) => cardElement(code, i)));
      showEvaluation(i);
    });
    const laid = state.packets.flat().length;
    $("laid-count").dataset.count = String(laid);
    $("laid-count").textContent = t("laid", { n: laid });
    $("opponent-hand").replaceChildren(...state.opponent.map((code) => Cards.element(code, state.lang, false)));
    $("play-btn").disabled = laid !== N_PACKETS * PACKET_SIZE || state.job !== null;
  }

  // ---------- combinations and strengths (POST /api/eval) ----------
  const evalKey = (cards) => JSON.stringify([sortCards(cards), rulesBody()]);

  function evaluate(cards) {
    const key = evalKey(cards);
    if (!evalCache.has(key)) {
      const request = api("POST", "/api/eval", { ...rulesBody(), cards: cards.join(" ") });
      request.then(
        (result) => {
          request.result = result;
        },
        () => evalCache.delete(key),
      );
      evalCache.set(key, request);
    }
    return evalCache.get(key);
  }

  function showEvaluation(i) {
    const packet = $("packet-" + (i + 1));
    const cards = state.packets[i];
    const combo = packet.querySelector(".combo");
    const strength = packet.querySelector(".strength");
    const done = evalCache.get(evalKey(cards));
    if (cards.length < PACKET_SIZE || !done || !done.result) {
      combo.textContent = cards.length < PACKET_SIZE ? t("cards_of", { n: cards.length }) : "…";
      combo.dataset.category = "";
      strength.textContent = "";
      strength.dataset.strength = "";
      return;
    }
    combo.textContent = categoryName(done.result.category);
    combo.dataset.category = done.result.category;
    strength.textContent = t("strength", { s: done.result.strength, top: done.result.max_strength });
    strength.dataset.strength = String(done.result.strength);
  }

  function evaluatePackets() {
    state.packets.forEach((cards, i) => {
      if (cards.length !== PACKET_SIZE) return;
      const request = evaluate(cards);
      request
        .then(() => showEvaluation(i))
        .catch((error) => showMessage(error.message));
    });
  }

  // ---------- jobs: start, poll, cancel ----------
  function setBusy(busy) {
    for (const button of document.querySelectorAll("button.job")) button.disabled = busy;
    $("progress").hidden = !busy;
    if (!busy) state.job = null;
    renderTable();
  }

  async function runJob(kind, body, onProgress) {
    showMessage("");
    const job = await api("POST", "/api/jobs/" + kind, body);
    state.job = job.id;
    setBusy(true);
    try {
      for (;;) {
        const status = await api("GET", "/api/jobs/" + job.id);
        if (status.state === "done") return status.result;
        if (status.state === "cancelled") throw new Error(t("cancelled"));
        if (status.state === "timeout") throw new Error(t("timeout"));
        if (status.state === "error") throw new Error(status.error);
        if (status.state === "failed") throw new Error(t("failed", { e: status.error }));
        $("progress-text").textContent = onProgress(status);
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

  // ---------- shared by the panels ----------
  function arrangementRow(packets) {
    const row = document.createElement("div");
    row.className = "arrangement";
    packets.forEach((packet) => {
      const group = document.createElement("span");
      group.className = "mini-packet";
      group.textContent = sortCards(packet).map((code) => Cards.label(code, state.lang)).join(" ");
      row.appendChild(group);
    });
    return row;
  }

  function useArrangement(packets) {
    state.packets = packets.map((packet) => sortCards(packet));
    state.selected = 0;
    state.game = null;
    $("play-result").replaceChildren();
    changed();
  }

  function percent(x) {
    return (100 * x).toFixed(1) + "%";
  }

  // ---------- language ----------
  function setLanguage(lang) {
    state.lang = lang;
    translatePage();
    renderTable();
    Quintet.panels.renderSuggestion();
    Quintet.panels.renderEquilibrium();
    Quintet.panels.renderGame();
    Quintet.panels.renderGrade();
    writeUrl();
  }

  // ---------- start ----------
  function start() {
    buildPackets();
    const arrangement = readUrl();
    syncControls();
    translatePage();
    $("deal-seed").addEventListener("click", dealBySeed);
    $("deal-cards").addEventListener("click", dealByCards);
    for (const [id, key] of [["mode", "mode"], ["ace-low", "aceLow"], ["flush-beats", "flushBeats"]]) {
      $(id).addEventListener("change", () => {
        state[key] = id === "mode" ? $(id).value : $(id).checked;
        if (state.holding.length) loadHoldings(null).catch((error) => showMessage(error.message));
        else writeUrl();
      });
    }
    $("clear").addEventListener("click", () => useArrangement([[], [], [], [], []]));
    $("suggest-btn").addEventListener("click", Quintet.panels.suggest);
    $("equilibrium-btn").addEventListener("click", Quintet.panels.equilibrium);
    $("play-btn").addEventListener("click", Quintet.panels.play);
    $("grade-btn").addEventListener("click", Quintet.panels.grade);
    $("cancel").addEventListener("click", cancelJob);
    $("player").addEventListener("change", translatePage);
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => setLanguage(button.dataset.lang));
    }
    document.body.dataset.ready = "true";
    if (location.search && (state.seed !== null || state.cardsText)) {
      loadHoldings(arrangement).catch((error) => showMessage(error.message));
    }
  }

  window.Quintet = {
    N_PACKETS, PACKET_SIZE, state, t, categoryName, api, holdingsBody, showMessage, evaluate,
    sortCards, runJob, working, useArrangement, percent, arrangementRow, panels: null,
  };
  // After every deferred script: panels.js fills Quintet.panels.
  document.addEventListener("DOMContentLoaded", start);
})();
