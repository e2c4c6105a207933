// Cards drawn as SVG: ASCII codes ("As", "Th", "7c") to pictures and labels.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const RANKS = { en: { T: "10", J: "J", Q: "Q", K: "K", A: "A" }, ru: { T: "10", J: "В", Q: "Д", K: "К", A: "Т" } };
  const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  const RANK_ORDER = "789TJQKA";
  const SUIT_ORDER = "cdhs";

  function rankLabel(code, lang) {
    const rank = code[0].toUpperCase();
    return (RANKS[lang] || RANKS.en)[rank] || rank;
  }

  function label(code, lang) {
    return rankLabel(code, lang) + SUITS[code[1].toLowerCase()];
  }

  // The card id of the library (rank * 4 + suit), for sorting: higher first.
  function cardId(code) {
    return RANK_ORDER.indexOf(code[0].toUpperCase()) * 4 + SUIT_ORDER.indexOf(code[1].toLowerCase());
  }

  function node(name, attrs, text) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function picture(code, lang) {
    const suit = code[1].toLowerCase();
    const red = suit === "h" || suit === "d";
    const color = red ? "#c0392b" : "#1b1b1b";
    const rank = rankLabel(code, lang);
    const svg = node("svg", { viewBox: "0 0 60 84", width: "60", height: "84", class: "card-svg", "aria-hidden": "true" });
    svg.appendChild(node("rect", { x: "1", y: "1", width: "58", height: "82", rx: "6", fill: "#fffdf7", stroke: "#666" }));
    svg.appendChild(node("text", { x: "6", y: "18", "font-size": "15", "font-weight": "bold", fill: color }, rank));
    svg.appendChild(node("text", { x: "6", y: "32", "font-size": "13", fill: color }, SUITS[suit]));
    svg.appendChild(node("text", { x: "33", y: "62", "font-size": "30", "text-anchor": "middle", fill: color }, SUITS[suit]));
    const corner = node("text", { x: "54", y: "78", "font-size": "11", "text-anchor": "end", fill: color }, rank);
    svg.appendChild(corner);
    return svg;
  }

  // A card element: focusable, draggable, with data-card for tests and scripts.
  function element(code, lang, interactive) {
    const div = document.createElement("div");
    div.className = "card";
    div.dataset.card = code;
    div.setAttribute("aria-label", label(code, lang));
    div.title = label(code, lang);
    if (interactive) {
      div.tabIndex = 0;
      div.setAttribute("role", "button");
      div.draggable = true;
    }
    div.appendChild(picture(code, lang));
    return div;
  }

  window.Cards = { label, cardId, element, picture, node };
})();
