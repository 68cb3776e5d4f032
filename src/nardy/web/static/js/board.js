// The board: an SVG drawing of a position seen by one player, and the pointer handling that
// turns a click-then-click or a drag into a single move from the legal moves the server
// sent. It knows the board's geometry, not the rules: what may move where comes in `legal`.
//
// Points are numbered as the viewer numbers them (1-24, 0 = borne off, 25 = the bar). Seat
// s's checkers come in s's own numbering; `theirPoint` turns the opponent's number into the
// viewer's: backgammon's sides mirror each other (p -> 25 - p), long nardy's are a half-turn
// apart (p -> p ± 12: both sides travel the same way).

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

/** The viewer's number of the opponent's point p (0 and 25 stay: off and the bar). */
export function theirPoint(variant, p) {
  if (p === 0 || p === 25) return p;
  if (variant === "long") return p > 12 ? p - 12 : p + 12;
  return 25 - p;
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
  constructor(container, onMove, options = {}) {
    this.onMove = onMove;
    this.readOnly = Boolean(options.readOnly);
    this.view = null;
    this.selected = null;
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
  }

  /**
   * view: {variant, sides: [counts of seat 0, of seat 1] (26 each, own numbering), viewer,
   * home, dice, diceSeat, cube: {value, owner}, legal: [{from, to, hit}], turn}
   */
  draw(view) {
    this.view = view;
    if (this.selected !== null && !this.origins().has(this.selected)) this.selected = null;
    this.render();
  }

  origins() {
    return new Set((this.view?.legal || []).map((m) => m.from));
  }

  destinations(from) {
    return new Set((this.view?.legal || []).filter((m) => m.from === from).map((m) => m.to));
  }

  render() {
    const v = this.view;
    const geo = layout(v.home);
    this.geo = geo;
    const svg = this.svg;
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    const grad = (id, a, b) => {
      const g = el("radialGradient", { id, cx: "38%", cy: "32%", r: "75%" }, defs);
      el("stop", { offset: "0%", "stop-color": a }, g);
      el("stop", { offset: "100%", "stop-color": b }, g);
    };
    grad("c0", "#fffaf0", "#d9ccb0");
    grad("c1", "#5a5f6b", "#16181d");
    el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14, class: "frame" }, svg);
    el("rect", { x: geo.fieldX, y: M, width: FIELD, height: HEIGHT - 2 * M, class: "felt" }, svg);
    el("rect", { x: geo.fieldX + 6 * PW, y: M, width: BAR, height: HEIGHT - 2 * M, class: "barstrip" }, svg);
    el("rect", { x: geo.trayX, y: M, width: TRAY, height: HEIGHT - 2 * M, rx: 6, class: "tray" }, svg);
    el("line", { x1: geo.trayX + 6, x2: geo.trayX + TRAY - 6, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "traysplit" }, svg);

    const legalTo = this.selected === null ? new Set() : this.destinations(this.selected);
    const origins = this.origins();
    for (let p = 1; p <= 24; p++) {
      const { x, top } = slot(geo, p);
      const base = top ? M : HEIGHT - M;
      const tip = top ? M + TRIANGLE : HEIGHT - M - TRIANGLE;
      el("polygon", {
        points: `${x - PW / 2 + 2},${base} ${x + PW / 2 - 2},${base} ${x},${tip}`,
        class: `point ${p % 2 ? "odd" : "even"}`,
      }, svg);
      el("text", {
        x, y: top ? M - 7 : HEIGHT - 7, class: "num", "text-anchor": "middle",
      }, svg).textContent = String(p);
      if (legalTo.has(p)) {
        el("polygon", {
          points: `${x - PW / 2 + 2},${base} ${x + PW / 2 - 2},${base} ${x},${tip}`,
          class: "target",
          "data-target": p,
        }, svg);
      }
    }
    if (v.variant === "long") this.heads(geo);

    // hit areas, drawn under the checkers: a click anywhere on a point or the tray counts
    for (let p = 1; p <= 24; p++) {
      const { x, top } = slot(geo, p);
      el("rect", {
        x: x - PW / 2, y: top ? M : HEIGHT / 2, width: PW, height: HEIGHT / 2 - M,
        class: "hit", "data-point": p,
      }, svg);
    }
    el("rect", {
      x: geo.trayX, y: geo.bottom ? HEIGHT / 2 : M, width: TRAY, height: HEIGHT / 2 - M,
      class: legalTo.has(0) ? "hit off target" : "hit off", "data-point": 0,
      ...(legalTo.has(0) ? { "data-target": 0 } : {}),
    }, svg);

    const mine = v.viewer;
    for (const seat of [0, 1]) {
      const counts = v.sides[seat];
      const own = seat === mine;
      for (let q = 1; q <= 24; q++) {
        const n = counts[q];
        if (!n) continue;
        const p = own ? q : theirPoint(v.variant, q);
        const { x, top } = slot(geo, p);
        const movable = own && origins.has(p);
        for (let i = 0; i < Math.min(n, STACK); i++) {
          this.checker(x, checkerY(top, i), seat, {
            point: own ? p : null,
            movable: movable && i === Math.min(n, STACK) - 1,
            selected: own && this.selected === p && i === Math.min(n, STACK) - 1,
          });
        }
        if (n > STACK) {
          el("text", { x, y: checkerY(top, STACK - 1) + 6, class: `count c${seat}`, "text-anchor": "middle" }, svg)
            .textContent = String(n);
        }
      }
      // the bar: my checkers on the half nearer where they enter, the opponent's on the other
      const onBar = counts[25];
      const barX = geo.fieldX + 6 * PW + BAR / 2;
      const towardTop = own ? geo.bottom : !geo.bottom;
      for (let i = 0; i < Math.min(onBar, 4); i++) {
        const y = towardTop ? HEIGHT / 2 - GAP / 2 - R - 2 * R * i : HEIGHT / 2 + GAP / 2 + R + 2 * R * i;
        this.checker(barX, y, seat, {
          point: own ? 25 : null,
          movable: own && origins.has(25) && i === 0,
          selected: own && this.selected === 25 && i === 0,
        });
      }
      if (onBar > 1) {
        const y = towardTop ? HEIGHT / 2 - GAP / 2 - R + 6 : HEIGHT / 2 + GAP / 2 + R + 6;
        el("text", { x: barX, y, class: `count c${seat}`, "text-anchor": "middle" }, svg).textContent = String(onBar);
      }
      // borne off: thin slabs in the tray, mine on the home side
      const off = counts[0];
      const bottomTray = own ? geo.bottom : !geo.bottom;
      for (let i = 0; i < off; i++) {
        const y = bottomTray ? HEIGHT - M - 8 - i * 13 - 11 : M + 8 + i * 13;
        el("rect", { x: geo.trayX + 8, y, width: TRAY - 16, height: 11, rx: 3, class: `slab c${seat}` }, svg);
      }
    }
    this.cube(geo);
    this.dice(geo);
  }

  heads(geo) {
    // long nardy: each player's head (their 24-point) marked at its base in their colour
    for (const seat of [0, 1]) {
      const p = seat === this.view.viewer ? 24 : theirPoint("long", 24);
      const { x, top } = slot(geo, p);
      el("rect", {
        x: x - PW / 2 + 8, y: top ? M + 2 : HEIGHT - M - 8, width: PW - 16, height: 6, rx: 3,
        class: `head c${seat}`,
      }, this.svg);
    }
  }

  checker(x, y, seat, { point, movable, selected }) {
    const attrs = { cx: x, cy: y, r: R - 1, fill: `url(#c${seat})`, class: `checker c${seat}` };
    if (movable) {
      attrs.class += " movable";
      attrs["data-point"] = point;
    }
    if (selected) attrs.class += " selected";
    const c = el("circle", attrs, this.svg);
    el("circle", { cx: x, cy: y, r: R * 0.62, class: `rim c${seat}`, "pointer-events": "none" }, this.svg);
    return c;
  }

  cube(geo) {
    const { cube, viewer } = this.view;
    if (!cube) return;
    const x = geo.fieldX + 6 * PW + BAR / 2;
    let y = HEIGHT / 2;
    if (cube.owner !== null && cube.owner !== undefined) {
      const mineSide = cube.owner === viewer;
      const down = mineSide ? geo.bottom : !geo.bottom;
      y = down ? HEIGHT - M - 30 : M + 30;
    }
    const s = 44;
    const g = el("g", { class: "cube", "data-owner": cube.owner ?? "centre" }, this.svg);
    el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 7 }, g);
    el("text", { x, y: y + 9, "text-anchor": "middle" }, g).textContent = String(cube.owner == null && cube.value === 1 ? 64 : cube.value);
  }

  dice(geo) {
    const { dice, diceSeat, viewer, used } = this.view;
    if (!dice) return;
    const mine = diceSeat === viewer;
    const quarterLeft = mine === geo.right ? geo.fieldX + 6 * PW + BAR : geo.fieldX;
    const cx = quarterLeft + 3 * PW;
    const s = 50;
    const pips = {
      1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
      4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
      6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
    };
    const shown = dice.length === 2 && dice[0] === dice[1] ? [dice[0], dice[1]] : dice;
    shown.forEach((d, i) => {
      const x = cx + (i - (shown.length - 1) / 2) * (s + 14);
      const y = HEIGHT / 2;
      const g = el("g", { class: `die c${diceSeat}${used && used[i] ? " used" : ""}`, "data-die": d }, this.svg);
      el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 9 }, g);
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
    if (this.readOnly || !this.view || !this.view.legal?.length || event.button > 0) return;
    const target = event.target;
    const from = target.classList?.contains("movable") ? Number(target.dataset.point) : null;
    this.pressed = { from, x: event.clientX, y: event.clientY, node: target, dragging: false };
    if (from !== null) this.svg.setPointerCapture(event.pointerId);
  }

  drag(event) {
    const p = this.pressed;
    if (!p || p.from === null) return;
    if (!p.dragging) {
      if (Math.hypot(event.clientX - p.x, event.clientY - p.y) < DRAG_START) return;
      p.dragging = true;
      this.selected = p.from;
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
    if (p.dragging) {
      p.ghost.remove();
      const to = this.pointAt(event);
      if (to !== null && this.destinations(p.from).has(to)) return this.play(p.from, to);
      this.selected = null;
      return this.render();
    }
    const at = p.from !== null ? p.from : this.pointAt(event);
    this.click(at);
  }

  cancelDrag() {
    if (this.pressed?.ghost) this.pressed.ghost.remove();
    this.pressed = null;
    this.render();
  }

  click(point) {
    if (this.selected !== null && point !== null && this.destinations(this.selected).has(point)) {
      return this.play(this.selected, point);
    }
    this.selected = point !== null && this.origins().has(point) && this.selected !== point ? point : null;
    this.render();
  }

  play(from, to) {
    this.selected = null;
    this.onMove(from, to);
  }
}
