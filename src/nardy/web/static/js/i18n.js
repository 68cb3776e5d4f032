// The language of every visible string. Each catalogue (/i18n/LANG.json) maps a key to its
// text, or for a counted phrase to one text per CLDR plural category of that language
// (Intl.PluralRules chooses the category: Russian, Ukrainian and Lithuanian have one, few
// and many). Code names keys only through t() and tn() with a literal key, and markup only
// through data-i18n / data-i18n-aria, so a test can check the catalogues against the code.

export const LANGUAGES = ["en", "lt", "ru", "uk", "ka"];
// Each language's name for itself, as the language menu shows it. Not translated, so not in
// the catalogues; not left to Intl.DisplayNames either, which falls back to the page's language
// where the browser lacks a locale's data (Chromium names Georgian "грузинский" on a Russian page).
export const ENDONYMS = { en: "English", lt: "lietuvių", ru: "русский", uk: "українська", ka: "ქართული" };
const FALLBACK = "en";

let current = FALLBACK;
let strings = {};
let plurals = new Intl.PluralRules(FALLBACK);
const listeners = new Set();

/** The language a visitor's browser asks for, among ours; English otherwise. */
export function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || FALLBACK]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

export function language() {
  return current;
}

/** Load a language's catalogue and redraw everything that listens. */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = FALLBACK;
  const url = import.meta.resolve(`/i18n/${lang}.json`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`catalogue ${lang}: ${response.status}`);
  strings = await response.json();
  current = lang;
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  translate(document);
  for (const listener of listeners) listener(lang);
}

/** Call back after every change of language (to redraw what code wrote). */
export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The text of a key, with {name} placeholders filled from params. */
export function t(key, params = {}) {
  const text = strings[key];
  if (typeof text !== "string") return `⟦${key}⟧`; // visible, so a test sees the gap
  return fill(text, params);
}

/** A number in the reader's language with `digits` decimals, "—" for none; `sign` as
 * Intl's signDisplay ("always" for an equity the hints show, "exceptZero", "auto"). A minus
 * sign, not the hyphen some languages' formats write, as the engine's tables show it. */
export function decimal(x, digits = 3, sign = "auto") {
  if (x === null || x === undefined) return "—";
  const parts = new Intl.NumberFormat(current, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: sign,
  }).formatToParts(x);
  return parts.map((part) => (part.type === "minusSign" ? "\u2212" : part.value)).join("");
}

/** The text of a counted phrase: the form of this language's plural category for n. */
export function tn(key, n, params = {}) {
  const forms = strings[key];
  if (!forms || typeof forms !== "object") return `⟦${key}⟧`;
  const form = forms[plurals.select(n)] ?? forms.other;
  return fill(form, { n: new Intl.NumberFormat(current).format(n), ...params });
}

/** Fill every element under root that names a key in its data-i18n attributes. */
export function translate(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}
