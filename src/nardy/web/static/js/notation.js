// Reading a play typed in the standard notation (NOTATION.md, "Moves"), from the mover's
// side and in their own numbering: `24/18 13/11`, `bar/22*`, `6/off`, `8/5(2)`, `24/18/13`
// (one checker on with both dice), read generously (`25/22`, `b/22`, `6/0`, `*` anywhere).
// The result is a list of legs {from, to}: where a checker starts and where it ends up; the
// room turns each leg into the single moves the server offers (a leg may take two dice).
// Whether a leg is legal is the server's to say, not this reader's.

/** The legs of a typed play, or {error: the piece not understood}. `bar` and `off` are the
 * words of the player's language for the bar and borne off (the English ones work too). */
export function readPlay(text, { bar = "bar", off = "off" } = {}) {
  const barWords = new Set(["bar", "b", bar.toLowerCase()]);
  const offWords = new Set(["off", "o", off.toLowerCase()]);
  const point = (word) => {
    if (barWords.has(word)) return 25;
    if (offWords.has(word)) return 0;
    if (!/^\d{1,2}$/.test(word)) return null;
    const n = Number(word);
    return n <= 25 ? n : null;
  };
  const legs = [];
  for (const piece of text.toLowerCase().replace(/,/g, " ").split(/\s+/).filter(Boolean)) {
    const found = piece.replace(/\*/g, "").match(/^([^()]+?)(?:\((\d)\))?$/);
    if (!found) return { error: piece };
    const stops = found[1].split("/").map(point);
    const times = found[2] ? Number(found[2]) : 1;
    if (stops.length < 2 || stops.includes(null) || times < 1 || times > 4) return { error: piece };
    for (let k = 0; k < times; k++) {
      for (let i = 0; i + 1 < stops.length; i++) legs.push({ from: stops[i], to: stops[i + 1] });
    }
  }
  return legs.length ? { legs } : { error: text };
}
