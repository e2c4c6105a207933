// Laying out the five packets: click, keys 1-5, drag a card with the mouse or a finger; each full
// packet shows its combination and strength (POST /api/eval); small card rows for tables.
"use strict";
(function () {
  const Q = window.Quintet;
  const { N_PACKETS, PACKET_SIZE, state, t } = Q;
  const $ = (id) => document.getElementById(id);
  const evalCache = new Map();
  const POINTS = [3, 4, 5, 6, 7];

  const inHand = () => {
    const laid = new Set(state.packets.flat());
    return state.holding.filter((code) => !laid.has(code));
  };
  const complete = () => state.packets.flat().length === N_PACKETS * PACKET_SIZE;
  const arrangementText = () => state.packets.map((packet) => packet.join(" ")).join(" | ");

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
        Q.showMessage(t("cards_of", { n: PACKET_SIZE }));
        return;
      }
      takeOut(code);
      state.packets[target].push(code);
      if (state.packets[target].length >= PACKET_SIZE) state.selected = nextOpen(target);
    }
    changed();
  }

  function place(code) {
    const target = state.packets[state.selected].length < PACKET_SIZE ? state.selected : nextOpen(state.selected);
    moveTo(code, target);
  }

  function changed() {
    for (const hook of Q.hooks.changed) hook();
    render();
    Q.writeUrl();
    evaluatePackets();
  }

  function setArrangement(packets) {
    const free = new Set(state.holding);
    state.packets = [[], [], [], [], []];
    packets.slice(0, N_PACKETS).forEach((packet, i) => {
      for (const code of sortCards(packet).slice(0, PACKET_SIZE)) {
        if (free.delete(code)) state.packets[i].push(code);
      }
    });
    state.selected = Math.max(0, state.packets.findIndex((p) => p.length < PACKET_SIZE));
    changed();
  }

  function focusCard(code) {
    const element = document.querySelector(`#hand [data-card="${code}"]`) || document.querySelector("#hand .card");
    if (element) element.focus();
  }

  function cardElement(code, zone) {
    const element = Cards.element(code, state.lang, true);
    const next = () => inHand()[inHand().indexOf(code) + 1];
    element.addEventListener("click", (event) => {
      event.stopPropagation();
      if (zone === "hand") {
        const after = next();
        place(code);
        focusCard(after);
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
        const after = next();
        moveTo(code, Number(event.key) - 1);
        focusCard(after);
      }
    });
    element.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", code);
      event.dataTransfer.effectAllowed = "move";
    });
    element.addEventListener("pointerdown", (event) => touchDrag(event, element, code));
    return element;
  }

  // ---------- a finger (or pen) drags a card: Pointer Events, as HTML drag-and-drop is mouse-only ----------
  const DRAG_START_PX = 8; // below this the touch is a tap (the click handler places the card)

  function dropTarget(x, y) {
    const hit = document.elementFromPoint(x, y);
    const zone = hit && hit.closest(".dropzone");
    if (!zone) return null;
    return zone.dataset.zone === "hand" ? "hand" : Number(zone.dataset.position) - 1;
  }

  function touchDrag(start, element, code) {
    if (start.pointerType === "mouse" || !start.isPrimary) return;
    let ghost = null;
    let over = null;
    const mark = (zone) => {
      if (over) over.classList.remove("over");
      over = zone;
      if (over) over.classList.add("over");
    };
    const move = (event) => {
      if (!ghost) {
        if (Math.hypot(event.clientX - start.clientX, event.clientY - start.clientY) < DRAG_START_PX) return;
        ghost = element.cloneNode(true);
        ghost.classList.add("drag-ghost");
        ghost.setAttribute("aria-hidden", "true");
        document.body.appendChild(ghost);
      }
      ghost.style.left = `${event.clientX - 22}px`;
      ghost.style.top = `${event.clientY - 31}px`;
      const hit = document.elementFromPoint(event.clientX, event.clientY);
      mark(hit && hit.closest(".dropzone"));
    };
    const end = (event) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", end);
      document.removeEventListener("pointercancel", end);
      mark(null);
      if (!ghost) return; // a tap: the click that follows places the card
      ghost.remove();
      // The click that follows a drag must not also place the card.
      const swallow = (click) => click.stopPropagation();
      element.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => element.removeEventListener("click", swallow, { capture: true }), 0);
      const target = event.type === "pointerup" ? dropTarget(event.clientX, event.clientY) : null;
      if (target !== null) moveTo(code, target);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", end);
    document.addEventListener("pointercancel", end);
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

  function build() {
    const box = $("packets");
    for (let i = 0; i < N_PACKETS; i++) {
      const packet = document.createElement("div");
      packet.className = "packet dropzone";
      packet.id = "packet-" + (i + 1);
      packet.dataset.position = String(i + 1);
      packet.setAttribute("role", "group");
      packet.innerHTML =
        '<div class="packet-head"><button type="button" class="position"></button><span class="packet-points"></span></div>' +
        '<div class="cards packet-cards"></div>' +
        '<div class="packet-foot"><span class="combo"></span> <span class="strength"></span></div>';
      const choose = () => {
        state.selected = i;
        render();
      };
      packet.addEventListener("click", choose);
      dropZone(packet, i);
      box.appendChild(packet);
    }
    dropZone($("hand"), "hand");
    $("clear").addEventListener("click", () => setArrangement([]));
    Q.hooks.language.push(render);
  }

  function render() {
    $("hand").replaceChildren(...inHand().map((code) => cardElement(code, "hand")));
    state.packets.forEach((cards, i) => {
      const packet = $("packet-" + (i + 1));
      const chosen = i === state.selected;
      packet.classList.toggle("selected", chosen);
      packet.classList.toggle("full", cards.length === PACKET_SIZE);
      packet.dataset.count = String(cards.length);
      packet.setAttribute("aria-label", t("position_n", { n: i + 1, p: POINTS[i] }));
      const head = packet.querySelector(".position");
      head.textContent = `${t("position")} ${i + 1}`;
      head.setAttribute("aria-pressed", String(chosen));
      packet.querySelector(".packet-points").textContent = `${POINTS[i]} ${t("points")}`;
      packet.querySelector(".packet-cards").replaceChildren(...cards.map((code) => cardElement(code, i)));
      showEvaluation(i);
    });
    const laid = state.packets.flat().length;
    $("laid-count").dataset.count = String(laid);
    $("laid-count").textContent = t("laid", { n: laid });
    $("opponent-hand").replaceChildren(...state.opponent.map((code) => Cards.element(code, state.lang, false)));
    for (const b of document.querySelectorAll("button.needs-all")) b.disabled = !complete() || state.job !== null;
  }

  // ---------- combinations and strengths (POST /api/eval) ----------
  const evalKey = (cards) => JSON.stringify([sortCards(cards), Q.rulesBody()]);

  function evaluate(cards) {
    const key = evalKey(cards);
    if (!evalCache.has(key)) {
      const request = Q.api("POST", "/api/eval", { ...Q.rulesBody(), cards: cards.join(" ") });
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
    combo.textContent = Q.categoryName(done.result.category);
    combo.dataset.category = done.result.category;
    strength.textContent = t("strength", { s: done.result.strength, top: done.result.max_strength });
    strength.dataset.strength = String(done.result.strength);
  }

  function evaluatePackets() {
    state.packets.forEach((cards, i) => {
      if (cards.length !== PACKET_SIZE) return;
      evaluate(cards)
        .then(() => showEvaluation(i))
        .catch((error) => Q.showMessage(error.message));
    });
  }

  // A packet as small cards with its combination under them (filled in when known).
  function miniPacket(cards) {
    const box = Q.el("span", { class: "mini-packet" });
    const row = Q.el("span", { class: "mini-cards" });
    row.append(...sortCards(cards).map((code) => Cards.mini(code, state.lang)));
    const combo = Q.el("span", { class: "combo" });
    box.append(row, combo);
    if (cards.length === PACKET_SIZE) {
      evaluate(cards).then((hand) => {
        combo.textContent = Q.categoryName(hand.category);
        combo.dataset.category = hand.category;
      }, () => null);
    }
    return box;
  }

  function arrangementRow(packets) {
    const row = Q.el("div", { class: "arrangement" });
    row.append(...packets.map(miniPacket));
    return row;
  }

  Q.layout = {
    build, render, setArrangement, evaluate, sortCards, complete, arrangementText, miniPacket, arrangementRow, POINTS,
  };
})();
