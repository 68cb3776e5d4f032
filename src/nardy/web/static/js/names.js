// Texts for the server's codes and the game's names, each key written out so the
// catalogue test sees it. Which bots and variants there are is the server's (vocab.js).

import { t } from "/js/i18n.js";

const BOTS = {
  beginner: () => t("bot.beginner"),
  casual: () => t("bot.casual"),
  intermediate: () => t("bot.intermediate"),
  advanced: () => t("bot.advanced"),
  expert: () => t("bot.expert"),
  "world-class": () => t("bot.world-class"),
};

const VARIANTS = {
  backgammon: () => t("variant.backgammon"),
  long: () => t("variant.long"),
  nackgammon: () => t("variant.nackgammon"),
  "nackgammon-ballard": () => t("variant.nackgammon-ballard"),
  "acey-deucey": () => t("variant.acey-deucey"),
};

const ERRORS = {
  "bad-username": () => t("error.bad-username"),
  "bad-password": () => t("error.bad-password"),
  "username-taken": () => t("error.username-taken"),
  "wrong-credentials": () => t("error.wrong-credentials"),
  "rate-limited": () => t("error.rate-limited"),
  "not-signed-in": () => t("error.not-signed-in"),
  "no-such-game": () => t("error.no-such-game"),
  "game-full": () => t("error.game-full"),
  "own-game": () => t("error.own-game"),
  "invalid-settings": () => t("error.invalid-settings"),
  offline: () => t("error.offline"),
  "not-creator": () => t("error.not-creator"),
  "not-waiting": () => t("error.not-waiting"),
  "others-seated": () => t("error.others-seated"),
  cancelled: () => t("error.cancelled"),
  "no-such-user": () => t("error.no-such-user"),
  "not-started": () => t("error.not-started"),
  "not-finished": () => t("error.not-finished"),
  "analysis-busy": () => t("error.analysis-busy"),
  "analysis-full": () => t("error.analysis-full"),
};

/** A bot's level as players call it (the server's name when we have no text for it). */
export function botName(level) {
  return BOTS[level] ? BOTS[level]() : level;
}

export function variantName(key) {
  return VARIANTS[key] ? VARIANTS[key]() : key;
}

/** A play in the reader's words for the bar and off ("bar/22*", "6/off"). */
export function localPlay(play) {
  return play.replace(/\bbar\b/g, t("notation.bar")).replace(/\boff\b/g, t("notation.off"));
}

/** What went wrong, in the reader's language, from the server's stable error code. */
export function errorText(err) {
  return ERRORS[err.code] ? ERRORS[err.code]() : t("error.generic", { reason: err.message });
}
