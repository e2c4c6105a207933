// What the Analyze and Study pages share: the language (kept in the URL's "lang"), words,
// elements, numbers, the JSON API and SVG charts.  No framework; nothing from the internet.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  // The link's language, else the one kept in this browser, else the browser's (store.js).
  const state = { lang: QuintetStore.language(params) };
  const onLanguage = [];

  // A phrase of ANALYSIS_I18N (or a nested one, "kinds.none"), with {name} values filled in.
  function t(key, values) {
    const find = (table) => key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), table);
    let text = find(ANALYSIS_I18N[state.lang]);
    if (text === undefined) text = find(ANALYSIS_I18N.en);
    if (text === undefined) text = key;
    for (const [name, value] of Object.entries(values || {})) text = text.split("{" + name + "}").join(value);
    return text;
  }

  // The combination whose English name the API gives ("full house"), in the page's language.
  function combination(english) {
    const keys = Object.keys(I18N.en.category);
    const key = keys.find((k) => I18N.en.category[k] === english || k === english.replace(/ /g, "_"));
    return key ? I18N[state.lang].category[key] : english;
  }

  const verdict = (name) => I18N[state.lang].verdicts[name] || name;

  function el(tag, attrs, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") element.textContent = value;
      else if (key === "dataset") Object.assign(element.dataset, value);
      else element.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) element.append(child);
    }
    return element;
  }

  const number = (x, digits = 3) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
  const percent = (x, digits = 1) => number(100 * x, digits) + "%";
  // A number as Python's "{:.Ng}" writes it (so a page and the command line print the same):
  // N significant digits, trailing zeros dropped, an exponent below 1e-4 or from 10^N up.
  function precise(x, digits = 3) {
    const value = Number(x);
    if (!Number.isFinite(value)) return String(value);
    if (value === 0) return "0";
    const [mantissa, power] = value.toExponential(digits - 1).split("e");
    const exponent = parseInt(power, 10);
    const trim = (text) => (text.includes(".") ? text.replace(/\.?0+$/, "") : text);
    if (exponent < -4 || exponent >= digits) {
      const sign = exponent < 0 ? "-" : "+";
      return `${trim(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
    }
    return trim(value.toFixed(digits - 1 - exponent));
  }

  // Text the server wrote (messages, file names): marked English for screen readers.
  const serverText = (text) => el("span", { lang: "en", class: "server-text", text });
  // An error's text: in the page's language when the server sent it so, else English (marked).
  // afterColon: it follows "The analysis failed:", so it starts in lower case (not an acronym: "JSON").
  const errorText = (error, afterColon) => {
    let text = error.message;
    if (afterColon && /^\p{Lu}\p{Ll}/u.test(text)) text = text[0].toLowerCase() + text.slice(1);
    return error.localized ? el("span", { class: "server-text", text }) : serverText(text);
  };

  function translate() {
    document.documentElement.lang = state.lang;
    for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
    for (const element of document.querySelectorAll("[data-i18n-label]")) {
      element.setAttribute("aria-label", t(element.dataset.i18nLabel));
    }
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
    }
    for (const link of document.querySelectorAll("a[data-page]")) link.href = pageUrl(link.dataset.page);
    const title = document.querySelector("h1");
    if (title) document.title = title.textContent + " · " + I18N[state.lang].title;
    for (const listener of onLanguage) listener();
  }

  // A page of the app with the language kept: "/", "/analyze.html", "/?seed=1&arr=...".
  function pageUrl(path) {
    const url = new URL(path, location.origin);
    url.searchParams.set("lang", state.lang);
    return url.pathname + url.search;
  }

  function writeParams(values) {
    const query = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(values)) {
      if (value === null || value === undefined || value === "") query.delete(key);
      else query.set(key, value);
    }
    history.replaceState(null, "", "?" + query.toString());
  }

  function setLanguage(lang) {
    state.lang = lang === "ru" ? "ru" : "en";
    QuintetStore.keepLanguage(state.lang);
    writeParams({ lang: state.lang });
    translate();
  }

  // status: the HTTP status or the job's state; code: the server's name for the case (no_book).
  // localized: the message is in the page's language (the server's "message"), not English.
  class ApiError extends Error {
    constructor(message, status, code, localized) {
      super(message);
      this.status = status;
      this.code = code || null;
      this.localized = Boolean(localized);
    }
  }

  // An error answer: the server's message in the page's language, else the page's words for its
  // status (a busy or stopping server, a lost job), else the server's English (marked so).
  function apiError(response, data) {
    const key = "status_" + response.status;
    if (!data.message && ANALYSIS_I18N.en[key]) return new ApiError(t(key), response.status, data.code, true);
    const detail = data.message || (typeof data.detail === "string" ? data.detail : response.statusText);
    return new ApiError(detail, response.status, data.code, Boolean(data.message));
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": state.lang },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ detail: response.statusText }));
    if (!response.ok) throw apiError(response, data);
    return data;
  }

  // A job of the server's queue (POST /api/jobs/KIND, then GET /api/jobs/ID until it ends):
  // onStatus(status) sees each poll (its progress); resolves to the finished status (done),
  // else throws an ApiError whose status is the job's state (cancelled, timeout, error...).
  async function job(kind, body, onStatus) {
    let status = await post("/api/jobs/" + kind, body);
    for (;;) {
      if (onStatus) onStatus(status);
      if (status.state === "done") return status;
      if (!["queued", "running"].includes(status.state)) {
        throw new ApiError(status.message || status.error || status.state, status.state, null, Boolean(status.message));
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
      const response = await fetch("/api/jobs/" + status.id, { headers: { "Accept-Language": state.lang } });
      const data = await response.json().catch(() => ({ detail: response.statusText }));
      if (!response.ok) throw apiError(response, data);
      status = data;
    }
  }

  const cancelJob = (id) => fetch("/api/jobs/" + id, { method: "DELETE" }).catch(() => null);

  // ---------- charts: inline SVG, drawn into a <figure> with an HTML legend ----------
  const svgNode = (name, attrs, text) => Cards.node(name, attrs, text);
  // Charts are drawn 600 units wide, 360 on a phone (so that their text stays readable).
  const narrow = window.matchMedia("(max-width: 640px)");
  let WIDTH = narrow.matches ? 360 : 600;
  narrow.addEventListener("change", () => {
    WIDTH = narrow.matches ? 360 : 600;
    for (const listener of onLanguage) listener();
  });

  function frame(height, label) {
    const svg = svgNode("svg", {
      viewBox: `0 0 ${WIDTH} ${height}`, width: "100%", role: "img", "aria-label": label,
      preserveAspectRatio: "xMidYMid meet", class: "chart",
    });
    svg.appendChild(svgNode("title", {}, label));
    return svg;
  }

  // Vertical bars on a 0..1 scale (shown as %), with optional interval whiskers.
  function barChart({ bars, label, axisLabel, intervals }) {
    const height = 250, left = 48, right = 12, top = 12, bottom = 44;
    const plot = { w: WIDTH - left - right, h: height - top - bottom };
    const svg = frame(height, label);
    const top10 = Math.ceil(Math.max(...bars.map((b) => (intervals ? b.high : b.value))) * 10 - 1e-9) / 10;
    const yMax = Math.min(1, Math.max(0.1, top10 || 0.1)); // a round top: 10%, 20%, ... 100%
    const y = (v) => top + plot.h * (1 - Math.min(v, yMax) / yMax);
    const step = yMax <= 0.5 ? 0.1 : 0.2;
    for (let i = 0; i * step <= yMax + 1e-9; i++) {
      const v = i * step;
      svg.appendChild(svgNode("line", { x1: left, x2: WIDTH - right, y1: y(v), y2: y(v), class: "grid" }));
      svg.appendChild(svgNode("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, percent(v, 0)));
    }
    const slot = plot.w / bars.length;
    bars.forEach((bar, i) => {
      const x = left + slot * i + slot * 0.2, w = slot * 0.6;
      const rect = svgNode("rect", { x, y: y(bar.value), width: w, height: Math.max(0, y(0) - y(bar.value)), class: "bar" });
      rect.dataset.value = bar.value;
      rect.appendChild(svgNode("title", {}, bar.title || `${bar.label}: ${percent(bar.value)}`));
      svg.appendChild(rect);
      if (intervals) {
        const cx = x + w / 2;
        const whisker = svgNode("g", { class: "whisker" });
        whisker.dataset.low = bar.low;
        whisker.dataset.high = bar.high;
        whisker.appendChild(svgNode("line", { x1: cx, x2: cx, y1: y(bar.low), y2: y(bar.high) }));
        for (const v of [bar.low, bar.high]) whisker.appendChild(svgNode("line", { x1: cx - 8, x2: cx + 8, y1: y(v), y2: y(v) }));
        svg.appendChild(whisker);
      }
      const every = Math.ceil(bars.length / (WIDTH < 600 ? 5 : 10));
      if (i % every === 0) {
        svg.appendChild(svgNode("text", { x: x + w / 2, y: height - bottom + 18, "text-anchor": "middle", class: "tick" }, bar.label));
      }
    });
    svg.appendChild(svgNode("text", { x: left + plot.w / 2, y: height - 6, "text-anchor": "middle", class: "axis" }, axisLabel));
    return svg;
  }

  // Stacked horizontal bars of shares (each row sums to 1), one row per group.
  function stackedChart({ rows, label, colors }) {
    const rowHeight = 34, left = 96, right = 12, top = 8;
    const height = top + rows.length * rowHeight + 24;
    const svg = frame(height, label);
    const w = WIDTH - left - right;
    rows.forEach((row, i) => {
      const yTop = top + i * rowHeight;
      svg.appendChild(svgNode("text", { x: left - 8, y: yTop + rowHeight / 2 + 4, "text-anchor": "end", class: "tick" }, row.label));
      let x = left;
      for (const part of row.parts) {
        const width = w * part.share;
        const rect = svgNode("rect", { x, y: yTop + 4, width: Math.max(0, width), height: rowHeight - 8, fill: colors[part.key], class: "segment" });
        rect.dataset.key = part.key;
        rect.appendChild(svgNode("title", {}, `${row.label}: ${part.name} ${percent(part.share)}`));
        svg.appendChild(rect);
        if (width > 40) {
          svg.appendChild(svgNode("text", { x: x + width / 2, y: yTop + rowHeight / 2 + 4, "text-anchor": "middle", class: "segment-label" }, percent(part.share, 0)));
        }
        x += width;
      }
    });
    for (const [v, anchor] of [[0, "start"], [0.5, "middle"], [1, "end"]]) {
      svg.appendChild(svgNode("text", { x: left + w * v, y: height - 6, "text-anchor": anchor, class: "tick" }, percent(v, 0)));
    }
    return svg;
  }

  // A histogram (bins drawn equally wide) with the mean and its interval marked.
  function histogram({ bins, label, axisLabel, summary }) {
    const bars = bins.map((b) => ({ label: b.label, value: b.share }));
    const svg = barChart({ bars, label, axisLabel, intervals: false });
    if (summary) {
      const left = 48, slot = (WIDTH - left - 12) / bins.length;
      const at = (v) => {
        let i = bins.findIndex((b) => v >= b.low && v <= b.high);
        if (i < 0) i = v < bins[0].low ? 0 : bins.length - 1;
        const b = bins[i];
        const within = b.high > b.low ? Math.min(1, Math.max(0, (v - b.low) / (b.high - b.low))) : 0.5;
        return left + slot * (i + within);
      };
      const [low, high] = summary.interval;
      const band = svgNode("rect", { x: at(low), y: 12, width: Math.max(2, at(high) - at(low)), height: 194, class: "band" });
      const mean = svgNode("line", { x1: at(summary.mean), x2: at(summary.mean), y1: 12, y2: 206, class: "mean" });
      mean.dataset.mean = summary.mean;
      svg.insertBefore(band, svg.children[1]);
      svg.appendChild(mean);
    }
    return svg;
  }

  // A legend: [{ kind: "bar" | "whisker" | "mean" | "band" | "swatch", text, color }].
  function legend(items) {
    return el("ul", { class: "legend" }, items.map((item) => {
      const mark = el("span", { class: "key key-" + item.kind, "aria-hidden": "true" });
      if (item.color) mark.style.background = item.color;
      return el("li", { dataset: { key: item.key || item.kind } }, mark, el("span", { text: item.text }));
    }));
  }

  function figure(id, caption, chart, legendItems, note) {
    return el("figure", { id, class: "chart-figure" },
      el("figcaption", {}, el("strong", { text: caption }), note ? el("span", { class: "hint block", text: note }) : null),
      chart, legend(legendItems));
  }

  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => setLanguage(button.dataset.lang));
  }

  window.Analysis = {
    state, t, combination, verdict, el, number, percent, precise, serverText, translate,
    pageUrl, writeParams, post, job, cancelJob, ApiError, errorText, barChart, stackedChart, histogram, figure, onLanguage,
  };
})();
