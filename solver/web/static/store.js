// What every page of the app keeps in this browser (localStorage), under one name each:
// the language chosen, and the session (its history of graded deals, as the lines
// `quintet train --history` writes).  The main page writes the session; the Analyze page reads
// the same key, so "use this browser's session history" sees what was played.
"use strict";
(function () {
  const SESSION_KEY = "quintet.session.v1";
  const LANG_KEY = "quintet.lang";
  const LANGS = ["en", "ru"];

  function get(key) {
    try {
      return localStorage.getItem(key);
    } catch (error) {
      return null; // storage refused (a private window): nothing kept
    }
  }

  function set(key, value) {
    try {
      localStorage.setItem(key, value);
      return null;
    } catch (error) {
      return error;
    }
  }

  // The page's language: the URL's lang= (a shared link), else the one chosen before in this
  // browser, else the first of the browser's languages the app speaks, else English.
  function language(params) {
    const asked = params.get("lang");
    if (LANGS.includes(asked)) return asked;
    const kept = get(LANG_KEY);
    if (LANGS.includes(kept)) return kept;
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const base = String(tag).toLowerCase().split("-")[0];
      if (LANGS.includes(base)) return base;
    }
    return "en";
  }

  const keepLanguage = (lang) => set(LANG_KEY, lang);

  // The stored session (null: none, or damaged).
  function session() {
    try {
      const stored = JSON.parse(get(SESSION_KEY) || "null");
      if (stored && Number.isInteger(stored.seed) && Array.isArray(stored.records)) return stored;
    } catch (error) {
      // a damaged store is no session
    }
    return null;
  }

  const saveSession = (value) => set(SESSION_KEY, JSON.stringify(value));

  // Every graded deal of the session, in the order graded: one `quintet train --history` line each.
  function sessionLines(stored) {
    return ((stored || session() || {}).records || []).map((r) => JSON.stringify(r.line));
  }

  window.QuintetStore = { SESSION_KEY, LANG_KEY, language, keepLanguage, session, saveSession, sessionLines };
})();
