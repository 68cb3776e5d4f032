// The rules pages: the project's own rules text (RULES.md) for each variant, one static
// fragment per language and page (/rules/LANG/PAGE.html), shown in the reader's language.

import { ENDONYMS, LANGUAGES, language, t, translate } from "/js/i18n.js";
import { variantName } from "/js/names.js";

/** The pages, in the order the tabs show them; each is named like its variant. */
export const RULE_PAGES = ["backgammon", "nackgammon", "acey-deucey", "long"];

// Which page (and part of it) tells each variant's rules: both nackgammon layouts share one.
const PAGE_OF = {
  backgammon: "/rules/backgammon",
  nackgammon: "/rules/nackgammon#nackgammon",
  "nackgammon-ballard": "/rules/nackgammon#ballard",
  "acey-deucey": "/rules/acey-deucey",
  long: "/rules/long",
};

/** The address of the rules of a variant (its key, as in a game's settings). */
export function rulesPath(variant) {
  return PAGE_OF[variant] || "/rules/backgammon";
}

/** Fill main with the rules page `page` in the current language; chooseLanguage(code) is
 * what the page's language links do (the same as the header's language menu). */
export async function rulesPage(main, page, chooseLanguage) {
  const lang = language();
  main.innerHTML = `
    <section class="rules">
      <h1 data-i18n="rules.title"></h1>
      <nav class="tabs" data-i18n-aria="rules.variants">
        ${RULE_PAGES.map((p) => `<a href="/rules/${p}" data-link${p === page ? ' aria-current="page"' : ""}>${variantName(p)}</a>`).join("")}
      </nav>
      <nav class="langs" data-i18n-aria="rules.languages">
        ${LANGUAGES.map((code) => `<button type="button" class="link" lang="${code}" data-lang="${code}"${code === lang ? ' aria-current="true"' : ""}>${ENDONYMS[code]}</button>`).join("")}
      </nav>
      <article class="card rules-text" id="rules-text" lang="${lang}"></article>
    </section>`;
  translate(main);
  for (const button of main.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => chooseLanguage(button.dataset.lang));
  }
  const article = main.querySelector("#rules-text");
  if (!RULE_PAGES.includes(page)) {
    article.textContent = t("rules.unknown");
    return;
  }
  try {
    const response = await fetch(import.meta.resolve(`/rules/${lang}/${page}.html`));
    if (!response.ok) throw new Error(String(response.status));
    // The fragment is one of this site's own fingerprinted files, not anything a user wrote.
    article.innerHTML = await response.text();
  } catch {
    article.textContent = t("rules.unavailable");
    return;
  }
  document.body.dataset.rules = `${lang}/${page}`;
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}
