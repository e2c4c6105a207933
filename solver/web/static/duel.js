// The duel: two people, two devices, one `quintet serve`.  One opens a room and passes on its
// code or link, the other joins; both lay out the room's deal with the page's layout, the table
// turns over position by position, then each sees the grade of their own play.  The room's
// secret (this player's token) stays in this tab's sessionStorage and goes in a header; the
// page waits for the other player with long requests (the server answers when the room
// changes), backing off after an error.
"use strict";
(function () {
  const Q = window.Quintet;
  const { N_PACKETS, state, t } = Q;
  const $ = (id) => document.getElementById(id);
  const REVEAL_MS = 650;
  const TOKEN_KEY = (code) => "quintet.duel." + code;
  let duel = null; // {code, token, room, revealed, timer, grade, grading, loaded (its deal on the table)}
  let waiting = 0; // the wait loop's generation: a new room (or leaving) ends the old loop

  const token = () => ({ "X-Room-Token": duel.token });

  // ---------- entering and leaving ----------
  async function openRoom() {
    try {
      const ticket = await Q.api("POST", "/api/duel", { ...Q.rulesBody(), mode: $("duel-mode").value });
      enter(ticket.code, ticket.token, ticket.room);
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  async function joinRoom(code) {
    code = (code || "").replace(/[\s-]/g, "").toUpperCase();
    if (!code) {
      Q.showMessage(t("duel_no_code"));
      return;
    }
    Q.showMessage("");
    const kept = sessionStorage.getItem(TOKEN_KEY(code));
    try {
      if (kept) {
        // This tab is a player of the room already (a reload): back to its seat.
        duel = { code, token: kept };
        enter(code, kept, await Q.api("GET", "/api/duel/" + code, undefined, token()));
        return;
      }
      const ticket = await Q.api("POST", `/api/duel/${code}/join`);
      enter(ticket.code, ticket.token, ticket.room);
    } catch (error) {
      if (kept) sessionStorage.removeItem(TOKEN_KEY(code));
      leave();
      Q.showMessage(error.message);
    }
  }

  function enter(code, secret, room) {
    sessionStorage.setItem(TOKEN_KEY(code), secret);
    duel = { code, token: secret, room: null, revealed: 0, timer: null, grade: null, grading: false, loaded: false };
    state.room = code;
    Q.writeUrl();
    $("duel-lobby").hidden = true;
    $("duel-room").hidden = false;
    $("duel-code").textContent = code;
    const link = new URL("/", location.href);
    link.search = new URLSearchParams({ view: "duel", room: code }).toString();
    $("duel-link").value = link.href;
    apply(room);
    wait(++waiting);
  }

  function leave() {
    waiting += 1;
    if (duel && duel.timer) clearInterval(duel.timer);
    if (duel) sessionStorage.removeItem(TOKEN_KEY(duel.code));
    duel = null;
    state.room = null;
    Q.writeUrl();
    $("duel-lobby").hidden = false;
    $("duel-room").hidden = true;
    $("table").hidden = true;
    renderBoard();
  }

  // ---------- the room's changes ----------
  async function wait(generation) {
    let pause = 1000;
    while (duel && generation === waiting) {
      try {
        const room = await Q.api("GET", `/api/duel/${duel.code}?since=${duel.room.version}`, undefined, token());
        if (generation !== waiting) return;
        pause = 1000;
        apply(room);
      } catch (error) {
        if (generation !== waiting) return;
        Q.showMessage(error.message);
        if (error.status === 403 || error.status === 404) {
          leave();
          Q.showMessage(error.message);
          return;
        }
        // The server is away (or busy): try again later, and later still.
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(2 * pause, 30000);
      }
    }
  }

  function apply(room) {
    const fresh = !duel.room || duel.room.seed !== room.seed || duel.room.deal_number !== room.deal_number;
    duel.room = room;
    if (fresh) {
      if (duel.timer) clearInterval(duel.timer);
      Object.assign(duel, { revealed: 0, timer: null, grade: null, grading: false, loaded: false });
    }
    // Another view's table is left alone: the room's deal goes on it when the duel is shown again.
    if (!duel.loaded && state.view === "duel") loadTable();
    if (room.phase === "revealed" && !duel.timer && duel.revealed < N_PACKETS) {
      duel.timer = setInterval(revealOne, REVEAL_MS);
    }
    render();
  }

  // The room's deal on the page's table: this player's cards, laid out as the server has them.
  function loadTable() {
    const room = duel.room;
    Q.claimTable(); // a deal another view asked for and not yet answered stays off this table
    state.seed = room.seed;
    state.dealt = true;
    state.mode = room.rules.discard_mode;
    state.aceLow = room.rules.ace_low_straight;
    state.flushBeats = room.rules.flush_beats_full_house;
    state.holding = room.holding;
    state.opponent = room.opponent_holding;
    $("table").hidden = false;
    for (const hook of Q.hooks.dealt) hook();
    Q.layout.setArrangement(room.arrangements[0] || [[], [], [], [], []]);
    duel.loaded = true;
  }

  async function layDown() {
    if (!Q.layout.complete()) {
      Q.showMessage(t("need_all"));
      return;
    }
    try {
      Q.showMessage("");
      apply(await Q.api("POST", `/api/duel/${duel.code}/layout`, { arrangement: Q.layout.arrangementText() }, token()));
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  async function nextDeal() {
    try {
      // after: both pressing at once deal once (the later press gets the room as it is).
      apply(await Q.api("POST", `/api/duel/${duel.code}/next?after=${duel.room.deal_number}`, undefined, token()));
      $("table").scrollIntoView({ block: "start" });
    } catch (error) {
      Q.showMessage(error.message);
    }
  }

  // ---------- the table and the grade ----------
  function revealOne() {
    if (!duel) return;
    duel.revealed = Math.min(N_PACKETS, duel.revealed + 1);
    if (duel.revealed >= N_PACKETS) revealed();
    render();
  }

  function revealAll() {
    if (!duel) return;
    duel.revealed = N_PACKETS;
    revealed();
    render();
  }

  function revealed() {
    if (duel.timer) clearInterval(duel.timer);
    duel.timer = null;
    if (!duel.grade && !duel.grading) grade();
  }

  async function grade() {
    const code = duel.code;
    duel.grading = true;
    try {
      const job = await Q.api("POST", `/api/duel/${code}/grade`, undefined, token());
      const doc = await Q.followJob(job);
      if (duel && duel.code === code) duel.grade = doc;
    } catch (error) {
      Q.showMessage(t("duel_grade_failed", { e: error.message }));
    } finally {
      if (duel) duel.grading = false;
      render();
    }
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

  function renderBoard() {
    const board = $("duel-board");
    const doc = duel && duel.room && duel.room.score;
    $("duel-controls").hidden = !doc;
    $("duel-game").hidden = !doc || state.view !== "duel"; // no empty table before both laid down
    if (!doc) {
      board.replaceChildren();
      board.hidden = true;
      $("duel-grade").replaceChildren();
      return;
    }
    const points = doc.rules.position_points;
    let mine = 0, theirs = 0;
    const columns = doc.outcomes.map((outcome, i) => {
      const shown = i < duel.revealed;
      const column = Q.el("div", { class: "duel-position", id: "duel-position-" + (i + 1), "data-position": String(i + 1) });
      column.dataset.outcome = shown ? (outcome > 0 ? "win" : outcome < 0 ? "loss" : "tie") : "";
      column.classList.toggle("shown", shown);
      const chip = Q.el("div", { class: "chip" });
      if (shown) {
        if (outcome > 0) mine += points[i];
        if (outcome < 0) theirs += points[i];
        chip.textContent = outcome > 0 ? t("chip_you", { p: points[i] }) : outcome < 0 ? t("duel_chip_them", { p: points[i] }) : t("chip_tie");
      } else chip.textContent = `${i + 1} · ${points[i]} ${t("points")}`;
      column.append(
        Q.el("div", { class: "duel-head" }, `${t("position")} ${i + 1} · ${points[i]} ${t("points")}`),
        packetCell(doc.arrangements[1][i], shown, "theirs"), chip, packetCell(doc.arrangements[0][i], shown, "mine"),
      );
      return column;
    });
    const names = Q.el("div", { class: "duel-names" });
    names.append(Q.el("span", {}, t("duel_row_theirs")), Q.el("span", {}, t("row_yours")));
    const score = Q.el("p", { class: "duel-score", "aria-live": "polite" });
    const done = duel.revealed >= N_PACKETS;
    if (!done) {
      score.id = "duel-running";
      score.textContent = t("running", { a: mine, b: theirs });
    } else {
      score.id = "duel-final";
      score.dataset.points = doc.points.join(":");
      const margin = Math.abs(doc.margin);
      score.textContent = `${doc.points[0]} : ${doc.points[1]} — ` +
        (doc.margin > 0 ? t("final_win", { m: margin }) : doc.margin < 0 ? t("final_loss", { m: margin }) : t("final_draw"));
    }
    const grid = Q.el("div", { class: "duel-grid" });
    grid.append(...columns);
    board.replaceChildren(names, grid, score);
    board.hidden = false;
    $("duel-reveal-next").hidden = $("duel-reveal-all").hidden = done;
    $("duel-next").hidden = !done;
    const box = $("duel-grade");
    if (duel.grade) box.replaceChildren(Q.el("h3", {}, t("duel_your_grade")), ...Q.trainer.gradeView(duel.grade, "duel-"));
    else box.replaceChildren(...(done && duel.grading ? [Q.el("p", { class: "hint" }, t("duel_grading"))] : []));
  }

  function status(room) {
    const [mine, theirs] = room.laid;
    if (room.phase === "waiting") return mine ? t("duel_waiting_laid") : t("duel_waiting");
    if (room.phase === "revealed") return t("duel_revealed", { n: room.deal_number });
    if (mine) return t("duel_they_lay");
    return theirs ? t("duel_your_turn_they_laid") : t("duel_both_here");
  }

  function render() {
    if (!duel || !duel.room) {
      renderBoard();
      return;
    }
    const room = duel.room;
    const line = $("duel-status");
    line.textContent = status(room);
    line.dataset.phase = room.phase;
    line.dataset.laid = room.laid.map(Number).join("");
    // Laid down: the packets stay as they are (the server has them).
    const laid = room.laid[0];
    $("duel-lay").hidden = laid || state.view !== "duel";
    $("table").classList.toggle("locked", laid);
    renderBoard();
  }

  function init() {
    $("duel-open").addEventListener("click", openRoom);
    $("duel-join").addEventListener("click", () => joinRoom($("duel-code-input").value));
    $("duel-code-input").addEventListener("keydown", (event) => {
      if (event.key === "Enter") joinRoom($("duel-code-input").value);
    });
    $("duel-leave").addEventListener("click", leave);
    $("duel-lay").addEventListener("click", layDown);
    $("duel-reveal-next").addEventListener("click", () => {
      if (duel && duel.timer) clearInterval(duel.timer);
      if (duel) duel.timer = null;
      revealOne();
    });
    $("duel-reveal-all").addEventListener("click", revealAll);
    $("duel-next").addEventListener("click", nextDeal);
    $("duel-link").addEventListener("focus", (event) => event.target.select());
    Q.hooks.language.push(render);
    if (state.view === "duel" && state.room) joinRoom(state.room);
  }

  // The duel view is shown: the table holds this room's deal, or nothing yet.
  function shown() {
    if (!duel) $("table").hidden = true;
    else if (duel.room) loadTable();
    render();
  }

  Q.duel = { init, shown, joinRoom, leave };
})();
