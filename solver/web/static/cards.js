// Cards drawn as SVG or as small text cards: ASCII codes ("As", "Th", "7c") to pictures,
// short labels ("Q♥") and the names screen readers announce ("queen of hearts").
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const RANKS = { en: { T: "10", J: "J", Q: "Q", K: "K", A: "A" }, ru: { T: "10", J: "В", Q: "Д", K: "К", A: "Т" } };
  const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  const RANK_NAMES = {
    en: { 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
    ru: { 7: "семёрка", 8: "восьмёрка", 9: "девятка", T: "десятка", J: "валет", Q: "дама", K: "король", A: "туз" },
  };
  const SUIT_NAMES = {
    en: { s: "spades", h: "hearts", d: "diamonds", c: "clubs" },
    ru: { s: "пик", h: "червей", d: "бубен", c: "треф" },
  };
  const FACE_DOWN = { en: "face-down card", ru: "закрытая карта" };
  const RANK_ORDER = "789TJQKA";
  const SUIT_ORDER = "cdhs";

  function rankLabel(code, lang) {
    const rank = code[0].toUpperCase();
    return (RANKS[lang] || RANKS.en)[rank] || rank;
  }

  function label(code, lang) {
    return rankLabel(code, lang) + SUITS[code[1].toLowerCase()];
  }

  // "queen of hearts", "дама червей": what a screen reader says for the card.
  function spoken(code, lang) {
    const words = RANK_NAMES[lang] ? lang : "en";
    const rank = RANK_NAMES[words][code[0].toUpperCase()];
    const suit = SUIT_NAMES[words][code[1].toLowerCase()];
    return words === "en" ? `${rank} of ${suit}` : `${rank} ${suit}`;
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

  const isRed = (code) => "hd".includes(code[1].toLowerCase());

  function picture(code, lang) {
    const suit = code[1].toLowerCase();
    const color = isRed(code) ? "#c0392b" : "#1b1b1b";
    const rank = rankLabel(code, lang);
    const svg = node("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false", "font-family": "DejaVu Sans, Arial, sans-serif" });
    svg.appendChild(node("rect", { x: "1", y: "1", width: "58", height: "82", rx: "6", fill: "#fffdf7", stroke: "#666" }));
    svg.appendChild(node("text", { x: "6", y: "18", "font-size": "15", "font-weight": "bold", fill: color }, rank));
    svg.appendChild(node("text", { x: "6", y: "32", "font-size": "13", fill: color }, SUITS[suit]));
    svg.appendChild(node("text", { x: "33", y: "62", "font-size": "30", "text-anchor": "middle", fill: color }, SUITS[suit]));
    svg.appendChild(node("text", { x: "54", y: "78", "font-size": "11", "text-anchor": "end", fill: color }, rank));
    return svg;
  }

  // The picture as an image (no text of its own: the element's name is its aria-label).
  const images = new Map();
  function image(code, lang) {
    const key = code + lang;
    if (!images.has(key)) {
      const svg = picture(code, lang);
      svg.setAttribute("xmlns", SVG);
      images.set(key, "data:image/svg+xml," + encodeURIComponent(new XMLSerializer().serializeToString(svg)));
    }
    const img = document.createElement("img");
    img.src = images.get(key);
    img.alt = "";
    img.className = "card-img";
    img.draggable = false;
    return img;
  }

  // A card element: focusable, draggable (interactive), with data-card for tests and scripts.
  function element(code, lang, interactive) {
    const div = document.createElement("div");
    div.className = "card";
    div.dataset.card = code;
    // The name holds the visible corner ("Q♥") and the words ("queen of hearts").
    div.setAttribute("aria-label", `${label(code, lang)}, ${spoken(code, lang)}`);
    if (interactive) {
      div.tabIndex = 0;
      div.setAttribute("role", "button");
      div.draggable = true;
    } else {
      div.setAttribute("role", "img");
    }
    div.appendChild(image(code, lang));
    return div;
  }

  // A small text card ("Q♥" on white), for tables and the table's packets.
  function mini(code, lang) {
    const span = document.createElement("span");
    span.className = "mini" + (isRed(code) ? " red" : "");
    span.dataset.card = code;
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", spoken(code, lang));
    span.textContent = label(code, lang);
    return span;
  }

  function back(lang) {
    const span = document.createElement("span");
    span.className = "mini back";
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", FACE_DOWN[lang] || FACE_DOWN.en);
    return span;
  }

  window.Cards = { label, spoken, cardId, element, picture, node, mini, back };
})();
