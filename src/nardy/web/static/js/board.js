// The board: an SVG drawing of a position seen by one player, and the pointer handling that
// turns a click-then-click or a drag into a single move from the legal moves the server
// sent. It knows the board's geometry, not the rules: what may move where comes in `legal`.
//
// Points are numbered as the viewer numbers them (1-24, 0 = borne off, 25 = the bar). Seat
// s's checkers come in s's own numbering; `theirPoint` turns the opponent's number into the
// viewer's with the variant's rule facts that the server sends (`rules`, from the core):
// backgammon's sides mirror each other, long nardy's are half a turn apart (both sides travel
// the same way). The board never asks which variant it is.
//
// Moving: a click on a checker with one destination plays it; with several, it selects the
// checker and highlights where it may go (a click there plays it, a second click on the
// checker plays the die used first, which a click on the dice swaps); a double-click moves
// one checker with every die left, where the order does not matter; or drag it.

const SVG = "http://www.w3.org/2000/svg";
const M = 22; // frame
const PW = 60; // point width
const BAR = 56;
const TRAY = 64;
const R = 27; // checker radius
const STACK = 5; // checkers drawn before the count is shown
const HALF = 2 * R * STACK; // depth of a half of the field
const GAP = 96; // between the halves: the dice
const FIELD = 12 * PW + BAR;
export const WIDTH = M + TRAY + M + FIELD + M;
export const HEIGHT = M + HALF + GAP + HALF + M;
const TRIANGLE = HALF - 18;
const DRAG_START = 6; // pixels a pointer travels before a press becomes a drag
const GLIDE_MS = 260; // how long a checker takes to slide to its point

/** The viewer's number of the opponent's point p (0 and 25 stay: off and the bar). */
export function theirPoint(rules, p) {
  return rules["opponent-points"][p];
}

/** Whether the single move {from, to} (the mover's numbering) can be the move of die d. */
export function usesDie(move, d) {
  // a checker borne off may use a die larger than its distance (RULES.md 1.4)
  return move.to === 0 ? d >= move.from : move.from - move.to === d;
}

/** Whether a checker, or a slide of one, should move on the screen (the player's option and
 * the system's reduced-motion setting). */
export function motionAllowed(animation) {
  return animation && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

/** Where things stand for a home board in the given corner. */
function layout(home) {
  const right = home.endsWith("right");
  const bottom = home.startsWith("bottom");
  const trayX = right ? M + TRAY + M + FIELD + M - M - TRAY : M; // the tray is beside the home board
  const fieldX = right ? M : M + TRAY + M;
  const mirrorX = (x) => (right ? x : 2 * fieldX + FIELD - x);
  const mirrorTop = (top) => (bottom ? top : !top);
  return { right, bottom, trayX: right ? fieldX + FIELD + M : trayX, fieldX, mirrorX, mirrorTop };
}

/** The centre x of point p (viewer's numbering) and whether it hangs from the top edge. */
function slot(geo, p) {
  const leftQ = geo.fieldX;
  const rightQ = geo.fieldX + 6 * PW + BAR;
  let x;
  let top;
  if (p <= 6) [x, top] = [rightQ + 6 * PW - (p - 0.5) * PW, false];
  else if (p <= 12) [x, top] = [leftQ + 6 * PW - (p - 6.5) * PW, false];
  else if (p <= 18) [x, top] = [leftQ + (p - 12.5) * PW, true];
  else [x, top] = [rightQ + (p - 18.5) * PW, true];
  return { x: geo.mirrorX(x), top: geo.mirrorTop(top) };
}

function checkerY(top, i) {
  return top ? M + R + 2 * R * i : HEIGHT - M - R - 2 * R * i;
}

export class Board {
  /**
   * container: the element to draw in; onMove(from, to) is called with a legal single
   * move the viewer made. options.readOnly: a board only to look at (a replay), which
   * takes no pointer input whatever it is given to draw.
   */
  constructor(container, onMove, { readOnly = false, onRefuse = () => {}, onNote = () => {} } = {}) {
    this.onMove = onMove;
    this.readOnly = Boolean(readOnly);
    this.onRefuse = onRefuse; // (from, to or null): a move of the viewer's the board does not offer
    this.onNote = onNote; // (key): something to tell the player, by catalogue key
    this.view = null;
    this.selected = null;
    this.swapped = false; // the smaller die first (a click on the dice)
    this.lastClick = null; // the checker clicked last, and where its one move took it
    this.chain = null; // a double-click's checker, still moving: {at}
    this.sentAt = null; // the state seq when a move was sent, until the next state
    this.svg = el("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: "board",
      role: "img",
      "data-i18n-aria": "board.label",
    });
    container.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.press(e));
    this.svg.addEventListener("pointermove", (e) => this.drag(e));
    this.svg.addEventListener("pointerup", (e) => this.release(e));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    // the browser counts the clicks (event.detail): 2 is a double-click, by the system's timing
    this.svg.addEventListener("click", (e) => this.clicked(e));
  }

  /**
   * view: {rules, seq, roll (what names this roll of the dice), sides: [counts of seat 0,
   * of seat 1] (26 each, own numbering), viewer, home, dice, used, diceSeat,
   * cube: {value, owner}, pending: the board view's (a cube offered is drawn on its
   * offerer's side at its new value), legal: [{from, to, hit}],
   * last: {seat, moves: [{from, to, hit}]} or null (the last play, the mover's numbering),
   * glide: [{seat, from, to}] (moves to slide, the mover's numbering), animation}
   */
  draw(view) {
    if (view.roll !== this.view?.roll) this.swapped = false; // a new roll: the larger die first
    if (this.sentAt !== null && view.seq !== this.sentAt) this.sentAt = null;
    this.view = view;
    if (this.selected !== null && !this.origins().has(this.selected)) this.selected = null;
    this.render();
    if (view.glide?.length && motionAllowed(view.animation)) this.slide(view.glide);
    if (this.chain) setTimeout(() => this.advance(), motionAllowed(view.animation) ? GLIDE_MS : 0);
  }

  /** The dice not yet played, the one used first first. */
  order() {
    const { dice, used } = this.view;
    if (!dice) return [];
    const left = dice.filter((d, i) => !used?.[i]);
    const distinct = [...new Set(left)].sort((a, b) => b - a);
    if (this.swapped) distinct.reverse();
    return distinct;
  }

  movesFrom(from) {
    return (this.view?.legal || []).filter((m) => m.from === from);
  }

  /** The move from `from` of the die used first, else of the other; null if none. */
  preferred(from) {
    return this.preferredOf(this.movesFrom(from));
  }

  /** Of these legal moves, one of the die used first, else of the other; null if none. */
  preferredOf(moves) {
    for (const d of this.order()) {
      const m = moves.find((move) => usesDie(move, d));
      if (m) return m;
    }
    return moves[0] ?? null;
  }

  origins() {
    return new Set((this.view?.legal || []).map((m) => m.from));
  }

  destinations(from) {
    return new Set(this.movesFrom(from).map((m) => m.to));
  }

  render() {
    const v = this.view;
    const geo = layout(v.home);
    this.geo = geo;
    const svg = this.svg;
    svg.replaceChildren();
    this.tops = new Map(); // "seat:point" -> the drawing of the checker on top there
    const defs = el("defs", {}, svg);
    const grad = (id, a, b, c) => {
      const g = el("radialGradient", { id, cx: "36%", cy: "30%", r: "80%" }, defs);
      el("stop", { offset: "0%", "stop-color": a }, g);
      el("stop", { offset: "55%", "stop-color": b }, g);
      el("stop", { offset: "100%", "stop-color": c }, g);
    };
    grad("c0", "#fffdf6", "#efe4cc", "#cdbb96");
    grad("c1", "#6a707d", "#2b2f37", "#101216");
    const wood = el("linearGradient", { id: "wood", x1: 0, y1: 0, x2: 1, y2: 1 }, defs);
    el("stop", { offset: "0%", "stop-color": "#4a3423" }, wood);
    el("stop", { offset: "100%", "stop-color": "#2c1e13" }, wood);
    // the cloth: lighter in the middle, as under a lamp
    const felt = el("radialGradient", { id: "felt", cx: "50%", cy: "50%", r: "75%" }, defs);
    el("stop", { offset: "0%", "stop-color": "#2b604e" }, felt);
    el("stop", { offset: "100%", "stop-color": "#1d4536" }, felt);
    const shade = el("filter", { id: "shade", x: "-30%", y: "-30%", width: "160%", height: "160%" }, defs);
    el("feDropShadow", { dx: 0, dy: 2, stdDeviation: 1.6, "flood-opacity": 0.45 }, shade);
    el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, class: "frame", fill: "url(#wood)" }, svg);
    el("rect", { x: geo.fieldX, y: M, width: FIELD, height: HEIGHT - 2 * M, class: "felt", fill: "url(#felt)" }, svg);
    el("rect", { x: geo.fieldX + 6 * PW, y: M, width: BAR, height: HEIGHT - 2 * M, class: "barstrip" }, svg);
    el("rect", { x: geo.trayX, y: M, width: TRAY, height: HEIGHT - 2 * M, rx: 6, class: "tray" }, svg);
    el("line", { x1: geo.trayX + 6, x2: geo.trayX + TRAY - 6, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "traysplit" }, svg);

    const legalTo = this.selected === null ? new Set() : this.destinations(this.selected);
    const first = this.selected === null ? null : this.preferred(this.selected)?.to;
    const origins = this.origins();
    const last = this.lastMarks();
    for (let p = 1; p <= 24; p++) {
      const { x, top } = slot(geo, p);
      const base = top ? M : HEIGHT - M;
      const tip = top ? M + TRIANGLE : HEIGHT - M - TRIANGLE;
      const shape = `${x - PW / 2 + 2},${base} ${x + PW / 2 - 2},${base} ${x},${tip}`;
      el("polygon", { points: shape, class: `point ${p % 2 ? "odd" : "even"}` }, svg);
      if (last.has(p)) el("polygon", { points: shape, class: `last ${last.get(p)}`, "data-last": p }, svg);
      el("text", {
        x, y: top ? M - 7 : HEIGHT - 7, class: "num", "text-anchor": "middle",
      }, svg).textContent = String(p);
      if (legalTo.has(p)) {
        el("polygon", { points: shape, class: p === first ? "target first" : "target", "data-target": p }, svg);
      }
    }
    if (v.rules.head !== null) this.heads(geo);

    // hit areas, drawn under the checkers: a click anywhere on a point or the tray counts
    for (let p = 1; p <= 24; p++) {
      const { x, top } = slot(geo, p);
      el("rect", {
        x: x - PW / 2, y: top ? M : HEIGHT / 2, width: PW, height: HEIGHT / 2 - M,
        class: "hit", "data-point": p,
      }, svg);
    }
    const offTarget = legalTo.has(0);
    el("rect", {
      x: geo.trayX, y: geo.bottom ? HEIGHT / 2 : M, width: TRAY, height: HEIGHT / 2 - M,
      class: `hit off${offTarget ? " target" : ""}${offTarget && first === 0 ? " first" : ""}`, "data-point": 0,
      ...(offTarget ? { "data-target": 0 } : {}),
    }, svg);

    const mine = v.viewer;
    for (const seat of [0, 1]) {
      const counts = v.sides[seat];
      const own = seat === mine;
      for (let q = 1; q <= 24; q++) {
        const n = counts[q];
        if (!n) continue;
        const p = own ? q : theirPoint(v.rules, q);
        const { x, top } = slot(geo, p);
        const movable = own && origins.has(p);
        const shown = Math.min(n, STACK);
        for (let i = 0; i < shown; i++) {
          const { y } = this.place(seat, q, i);
          const g = this.checker(x, y, seat, {
            point: own ? p : null,
            movable: movable && i === shown - 1,
            selected: own && this.selected === p && i === shown - 1,
          });
          if (i === shown - 1) this.tops.set(`${seat}:${q}`, g);
        }
        if (n > STACK) {
          el("text", { x, y: checkerY(top, STACK - 1) + 8, class: `count c${seat}`, "text-anchor": "middle" }, svg)
            .textContent = String(n);
        }
      }
      // the bar: my checkers on the half nearer where they enter, the opponent's on the other
      const onBar = counts[25];
      for (let i = 0; i < Math.min(onBar, 4); i++) {
        const { x, y } = this.place(seat, 25, i);
        const g = this.checker(x, y, seat, {
          point: own ? 25 : null,
          movable: own && origins.has(25) && i === 0,
          selected: own && this.selected === 25 && i === 0,
        });
        if (i === 0) this.tops.set(`${seat}:25`, g);
      }
      if (onBar > 1) {
        const { x, y } = this.place(seat, 25, 0);
        el("text", { x, y: y + 8, class: `count c${seat}`, "text-anchor": "middle" }, svg).textContent = String(onBar);
      }
      // borne off: thin slabs in the tray, each side's in the half beside its home board
      for (let i = 0; i < counts[0]; i++) {
        const { y } = this.place(seat, 0, i);
        const slab = el("rect", { x: geo.trayX + 8, y: y - 5.5, width: TRAY - 16, height: 11, rx: 3, class: `slab c${seat}` }, svg);
        this.tops.set(`${seat}:0`, slab);
      }
    }
    this.cube(geo);
    this.dice(geo);
  }

  /**
   * Where the i-th checker (from the edge) of seat `seat` on its own point q is drawn: on a
   * point, on the bar (q = 25) or borne off in the tray (q = 0).
   */
  place(seat, q, i) {
    const geo = this.geo;
    const own = seat === this.view.viewer;
    if (q === 25) {
      const x = geo.fieldX + 6 * PW + BAR / 2;
      const towardTop = own ? geo.bottom : !geo.bottom;
      const y = towardTop ? HEIGHT / 2 - GAP / 2 - R - 2 * R * i : HEIGHT / 2 + GAP / 2 + R + 2 * R * i;
      return { x, y };
    }
    if (q === 0) {
      const bottomTray = own ? geo.bottom : !geo.bottom;
      const y = bottomTray ? HEIGHT - M - 8 - i * 13 - 5.5 : M + 8 + i * 13 + 5.5;
      return { x: geo.trayX + TRAY / 2, y };
    }
    const p = own ? q : theirPoint(this.view.rules, q);
    const { x, top } = slot(geo, p);
    return { x, y: checkerY(top, Math.min(i, STACK - 1)) };
  }

  /** Slide each moved checker from where it stood to where it is drawn now. */
  slide(glide) {
    const counts = this.view.sides;
    glide.forEach(({ seat, from, to }, k) => {
      const node = this.tops.get(`${seat}:${to}`);
      if (!node) return;
      // it left from above the checkers still on its starting point
      const start = this.place(seat, from, from === 0 ? 0 : counts[seat][from]);
      const end = this.place(seat, to, to === 25 ? 0 : Math.max(counts[seat][to] - 1, 0));
      const dx = start.x - end.x;
      const dy = start.y - end.y;
      node.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
        { duration: GLIDE_MS, delay: k * 60, easing: "cubic-bezier(.25,.8,.35,1)", fill: "backwards" },
      );
    });
  }

  /** The points of the last play to outline: "from" where it left, "to" where it went. */
  lastMarks() {
    const marks = new Map();
    const last = this.view.last;
    if (!last) return marks;
    const own = last.seat === this.view.viewer;
    const mark = (q, kind) => {
      if (q === 0 || q === 25) return;
      const p = own ? q : theirPoint(this.view.rules, q);
      if (!marks.has(p) || kind === "to") marks.set(p, kind);
    };
    for (const { from, to } of last.moves) {
      mark(from, "from");
      mark(to, "to");
    }
    return marks;
  }

  heads(geo) {
    // each player's head (the point every checker starts on) marked at its base in their colour
    const head = this.view.rules.head;
    for (const seat of [0, 1]) {
      const p = seat === this.view.viewer ? head : theirPoint(this.view.rules, head);
      const { x, top } = slot(geo, p);
      el("rect", {
        x: x - PW / 2 + 8, y: top ? M + 2 : HEIGHT - M - 8, width: PW - 16, height: 6, rx: 3,
        class: `head c${seat}`, "data-head": seat,
      }, this.svg);
    }
  }

  checker(x, y, seat, { point, movable, selected }) {
    const g = el("g", { class: "piece" }, this.svg);
    const attrs = { cx: x, cy: y, r: R - 1, fill: `url(#c${seat})`, class: `checker c${seat}`, filter: "url(#shade)" };
    if (movable) {
      attrs.class += " movable";
      attrs["data-point"] = point;
      attrs["data-ends"] = [...this.destinations(point)].join(" "); // where it may go
    }
    if (selected) attrs.class += " selected";
    el("circle", attrs, g);
    el("circle", { cx: x, cy: y, r: R * 0.62, class: `rim c${seat}`, "pointer-events": "none" }, g);
    el("circle", { cx: x, cy: y, r: R * 0.36, class: `rim c${seat}`, "pointer-events": "none" }, g);
    return g;
  }

  cube(geo) {
    const { cube, viewer, pending } = this.view;
    if (!cube) return;
    let x = geo.fieldX + 6 * PW + BAR / 2;
    let y = HEIGHT / 2;
    let value = cube.owner == null && cube.value === 1 ? 64 : cube.value;
    const offer = pending?.kind === "double" || pending?.kind === "beaver" ? pending : null;
    if (offer) {
      // offered: turned to its new value in the offerer's half, where their dice would lie
      x = this.quarterCentre(geo, offer.by === viewer);
      value = offer.value;
    } else if (cube.owner !== null && cube.owner !== undefined) {
      const mineSide = cube.owner === viewer;
      const down = mineSide ? geo.bottom : !geo.bottom;
      y = down ? HEIGHT - M - 30 : M + 30;
    }
    const s = 44;
    const attrs = { class: offer ? "cube offered" : "cube", "data-owner": cube.owner ?? "centre" };
    if (offer) attrs["data-offered-by"] = offer.by;
    const g = el("g", attrs, this.svg);
    el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 7, filter: "url(#shade)" }, g);
    const label = String(value);
    // any value the rules allow fits the face: past two digits the figure is drawn smaller
    // (a digit of the 24px face's font is about 15px wide; the face leaves 38px for them)
    const fit = Math.min(1, 38 / (15 * label.length));
    const face = el("g", { transform: `translate(${x} ${y}) scale(${fit.toFixed(3)})` }, g);
    el("text", { x: 0, y: 9, "text-anchor": "middle" }, face).textContent = label;
  }

  /** The centre x of the quarter where a side's dice lie: the viewer's (`mine`) or the
   * opponent's, on the right of each as they sit. */
  quarterCentre(geo, mine) {
    const quarterLeft = mine === geo.right ? geo.fieldX + 6 * PW + BAR : geo.fieldX;
    return quarterLeft + 3 * PW;
  }

  dice(geo) {
    const { dice, diceSeat, viewer, used, legal } = this.view;
    if (!dice) return;
    const mine = diceSeat === viewer;
    const cx = this.quarterCentre(geo, mine);
    const s = 50;
    const pips = {
      1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
      4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
      6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
    };
    // the die used first is drawn first: the order a click on the dice swaps
    const order = this.order();
    const shown = dice.map((d, i) => ({ d, used: !!used?.[i] }));
    if (order.length === 2 && order[0] < order[1]) shown.reverse();
    const swappable = mine && order.length === 2 && legal?.length > 0;
    const group = el("g", { class: `dice${swappable ? " swappable" : ""}`, "data-dice": order.join("-") }, this.svg);
    shown.forEach(({ d, used: spent }, i) => {
      const x = cx + (i - (shown.length - 1) / 2) * (s + 14);
      const y = HEIGHT / 2;
      const g = el("g", { class: `die c${diceSeat}${spent ? " used" : ""}`, "data-die": d }, group);
      el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 9, filter: "url(#shade)" }, g);
      for (const [dx, dy] of pips[d]) el("circle", { cx: x + dx * 13, cy: y + dy * 13, r: 5 }, g);
    });
  }

  // -- pointer: click a checker, then its destination; or drag it there -----------------

  pointAt(event) {
    const hit = document.elementsFromPoint(event.clientX, event.clientY)
      .find((node) => node.dataset && node.dataset.point !== undefined && node.closest("svg") === this.svg);
    return hit ? Number(hit.dataset.point) : null;
  }

  svgPoint(event) {
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  press(event) {
    if (this.readOnly || !this.view || event.button > 0) return;
    const target = event.target;
    if (target.closest?.(".dice.swappable")) {
      this.pressed = { dice: true };
      return;
    }
    if (!this.view.legal?.length) {
      this.pressed = { from: null, refuseOnly: true, x: event.clientX, y: event.clientY };
      return;
    }
    const from = target.classList?.contains("movable") ? Number(target.dataset.point) : null;
    // a checker of the viewer's that cannot move: dragged anyway, the game says why not
    const stuck = from === null && target.classList?.contains("checker") ? this.ownPoint(this.pointAt(event)) : null;
    this.pressed = { from: from ?? stuck, stuck: stuck !== null, x: event.clientX, y: event.clientY, node: target, dragging: false };
    if (from !== null || stuck !== null) this.svg.setPointerCapture(event.pointerId);
  }

  /** `point` if the viewer has a checker there (1-24), else null. */
  ownPoint(point) {
    return point !== null && point !== 0 && this.view.sides[this.view.viewer][point] > 0 ? point : null;
  }

  drag(event) {
    const p = this.pressed;
    if (!p || p.from === null || p.from === undefined) return;
    if (!p.dragging) {
      if (Math.hypot(event.clientX - p.x, event.clientY - p.y) < DRAG_START) return;
      p.dragging = true;
      this.selected = p.stuck ? null : p.from;
      this.render();
      p.ghost = el("circle", { r: R, fill: `url(#c${this.view.viewer})`, class: `checker ghost c${this.view.viewer}`, "pointer-events": "none" }, this.svg);
    }
    const at = this.svgPoint(event);
    p.ghost.setAttribute("cx", at.x);
    p.ghost.setAttribute("cy", at.y);
  }

  release(event) {
    const p = this.pressed;
    this.pressed = null;
    if (!p) return;
    if (p.dice) {
      this.tap = { dice: true };
      return;
    }
    if (p.refuseOnly) return; // not the viewer's move now
    if (p.dragging) {
      p.ghost.remove();
      this.tap = null;
      const to = this.pointAt(event);
      if (to !== null && this.destinations(p.from).has(to)) return this.play(p.from, to);
      this.selected = null;
      this.render();
      // dropped where it cannot go (not back on its own point, nor off the board): why not
      if (to !== null && to !== p.from) this.onRefuse(p.from, to);
      else if (p.stuck) this.onRefuse(p.from, null);
      return;
    }
    // what the click event that follows acts on
    this.tap = { point: p.from !== null ? p.from : this.pointAt(event) };
  }

  clicked(event) {
    const tap = this.tap;
    this.tap = null;
    if (!tap) return;
    if (tap.dice) return event.detail < 2 && this.swapDice();
    if (event.detail >= 2) return this.double(tap.point);
    this.click(tap.point);
  }

  cancelDrag() {
    if (this.pressed?.ghost) this.pressed.ghost.remove();
    this.pressed = null;
    this.render();
  }

  /** Use the other die first (two different dice, neither played yet or one left). */
  swapDice() {
    if (this.order().length !== 2) return;
    this.swapped = !this.swapped;
    this.onNote("board.dice-swapped", { die: this.order()[0] });
    this.render();
  }

  click(point) {
    const selected = this.selected;
    if (selected !== null && point !== null && this.destinations(selected).has(point)) {
      return this.play(selected, point);
    }
    if (point !== null && this.origins().has(point)) return this.clickChecker(point);
    this.selected = null;
    this.render();
    // a checker that cannot move at all; or a checker chosen, then a point it cannot reach
    if (this.ownPoint(point) !== null) this.onRefuse(point, null);
    else if (selected !== null && point !== null && point < selected) this.onRefuse(selected, point);
  }

  /** A click on a checker that can move: play its one move, or select it (a second
   * click on it plays the die used first). */
  clickChecker(point) {
    const moves = this.movesFrom(point);
    const ends = new Set(moves.map((m) => m.to));
    if (ends.size === 1) {
      this.lastClick = { point, landed: moves[0].to };
      return this.play(point, moves[0].to);
    }
    this.lastClick = { point, landed: null };
    if (this.selected === point) return this.play(point, this.preferred(point).to);
    this.selected = point;
    this.render();
  }

  /** A double-click on a checker: the same checker on with every die left (the first click
   * already moved it, or selected it). */
  double(point) {
    const last = this.lastClick;
    this.lastClick = null;
    if (!last || last.point !== point) return this.click(point);
    this.startChain(last.landed ?? point);
  }

  // -- a double-click: one checker on with every die left, one single move at a time ----

  startChain(at) {
    this.selected = null;
    if (this.sentAt === null) {
      // the first step's order must not matter: two different dice both playable first,
      // one of them hitting on the way, is a choice the player makes
      const moves = this.movesFrom(at);
      const order = this.order();
      if (order.length === 2) {
        const firsts = order.map((d) => moves.find((m) => usesDie(m, d))).filter(Boolean);
        if (firsts.length === 2 && firsts[0].hit !== firsts[1].hit) {
          this.onNote("board.ambiguous", {});
          this.selected = at;
          return this.render();
        }
      }
    }
    this.chain = { at };
    if (this.sentAt === null) this.advance();
  }

  advance() {
    const chain = this.chain;
    if (!chain || this.sentAt !== null) return;
    const m = this.preferred(chain.at);
    if (!m) {
      this.chain = null;
      return;
    }
    chain.at = m.to;
    if (m.to === 0) this.chain = null;
    this.play(m.from, m.to);
  }

  play(from, to) {
    this.selected = null;
    this.sentAt = this.view.seq;
    this.onMove(from, to);
  }

  /** Forget a double-click's chain and any move awaiting its answer (the turn moved on
   * without it, or the server refused it). */
  stop() {
    this.chain = null;
    this.sentAt = null;
  }
}
