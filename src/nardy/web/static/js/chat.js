// The room's chat (docs/protocol.md, `chat` and `mute`): the lines the server lets this
// reader hear, the box to say one, and the mute. The server decides who hears what: while
// the game runs a spectator's line reaches the other spectators only, so that nobody
// watching can advise a player; the panel says so to spectators. A line is text, always:
// it is written with textContent, never as markup.

import { language, t, onLanguage, translate } from "/js/i18n.js";
import { refusalText } from "/js/refusals.js";

const LENGTH = 300; // the protocol's longest line
const KEPT = 200; // lines kept on the page (the server's history is 100)
const REF = "chat:"; // the ref of this panel's messages, so that their refusals come back here

export class Chat {
  /** The panel in `box`; `send` sends a protocol message on the room's socket; `speaks`
   * false for a visitor signed in as nobody, who reads the chat and cannot write in it. */
  constructor(box, send, { speaks = true } = {}) {
    this.box = box;
    this.send = send;
    this.speaks = speaks;
    this.seat = null;
    this.status = null;
    this.muted = false;
    this.pending = new Map(); // ref -> the text sent with it, given back if refused
    this.refs = 0;
    box.innerHTML = `
      <h2 class="chat-title" id="chat-title"></h2>
      <p class="chat-apart" id="chat-apart" data-i18n="chat.apart" hidden></p>
      <ol class="chat-log" id="chat-log" role="log" aria-live="polite" aria-labelledby="chat-title"></ol>
      <p class="chat-note" id="chat-empty" data-i18n="chat.empty"></p>
      <p class="chat-note" id="chat-muted" data-i18n="chat.muted-note" hidden></p>
      <form class="chat-say" id="chat-say" autocomplete="off">
        <label class="sr" for="chat-input" data-i18n="chat.label"></label>
        <input id="chat-input" name="text" maxlength="${LENGTH}" spellcheck="true" enterkeyhint="send" data-i18n-placeholder="chat.placeholder">
        <button type="submit" data-i18n="chat.send"></button>
      </form>
      <p class="chat-refused" id="chat-refused" role="alert" hidden></p>
      <button type="button" class="quiet" id="chat-mute"></button>`;
    this.log = box.querySelector("#chat-log");
    this.input = box.querySelector("#chat-input");
    box.querySelector("#chat-say").addEventListener("submit", (e) => {
      e.preventDefault();
      this.say();
    });
    box.querySelector("#chat-mute").addEventListener("click", () => this.mute(!this.muted));
    this.offLanguage = onLanguage(() => this.draw());
    translate(box); // its data-i18n words; after a change of language setLanguage does it
    this.draw();
  }

  close() {
    this.offLanguage();
  }

  /** Take what concerns the chat from a message of the room's socket; true when the
   * message was the chat's alone (a line, or the answer to one of the panel's own). */
  receive(message) {
    const status = this.status;
    if (message.state) this.status = message.state.status;
    if (message.type === "welcome") {
      // the whole history again, after a reload or a reconnection: it replaces the old
      this.seat = message.seat;
      this.muted = !!message.muted;
      const clock = this.clock();
      this.log.replaceChildren(...(message.chat || []).map((line) => this.item(line, clock)));
      this.draw();
      this.scroll(true);
      return false;
    }
    if (message.type === "chat") {
      this.hear(message);
      return true;
    }
    const ours = typeof message.ref === "string" && message.ref.startsWith(REF);
    if (!ours) {
      if (this.status !== status) this.draw(); // a game over lets the spectators' note go
      return false;
    }
    if (message.type === "refused" || message.type === "error") {
      this.refused(message);
    }
    return true;
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    const ref = `${REF}${++this.refs}`;
    if (!this.send({ type: "chat", text, ref })) return; // no socket: the line stays in the box
    this.pending.set(ref, text);
    if (this.pending.size > 20) this.pending.delete(this.pending.keys().next().value);
    this.input.value = "";
    this.showRefusal(null);
  }

  /** A refusal of one of the panel's lines: said in the reader's language, and the line
   * given back to the box (unless something else is being typed there) to send again. */
  refused(message) {
    const text = this.pending.get(message.ref);
    this.pending.delete(message.ref);
    if (text !== undefined && !this.input.value) this.input.value = text;
    // `busy` is the room's word for a game that moved on; for a line, it was not kept
    const code = message.code;
    this.showRefusal(code === "busy" ? t("chat.busy") : refusalText(code, message.message));
  }

  showRefusal(text) {
    const box = this.box.querySelector("#chat-refused");
    box.hidden = text === null;
    box.textContent = text ?? "";
  }

  mute(muted) {
    if (!this.send({ type: "mute", muted, ref: `${REF}mute` })) return; // the server did not hear it
    this.muted = muted;
    this.draw();
  }

  hear(line) {
    const follow = this.atEnd();
    this.log.appendChild(this.item(line, this.clock()));
    while (this.log.childElementCount > KEPT) this.log.firstElementChild.remove();
    this.box.querySelector("#chat-empty").hidden = true;
    this.scroll(follow);
  }

  /** One line as the log shows it: when, who (a spectator marked so), what. */
  item(line, clock) {
    const li = document.createElement("li");
    li.className = line.seat === null ? "watcher" : "player";
    if (line.seat !== null && line.seat === this.seat) li.classList.add("mine");
    const when = document.createElement("time");
    when.dateTime = line.at;
    when.textContent = hhmm(clock, line.at);
    li.append(when, " ");
    if (line.seat === 0 || line.seat === 1) {
      // the speaker's checkers, as the players' strips show them (a table's seat is a person)
      const swatch = document.createElement("span");
      swatch.className = `swatch c${line.seat}`;
      li.append(swatch, " ");
    }
    const who = document.createElement("b");
    who.className = "speaker";
    who.textContent = line.username;
    li.append(who);
    if (line.seat === null) {
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.dataset.i18n = "chat.spectator";
      mark.textContent = t("chat.spectator");
      li.append(" ", mark);
    }
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = line.text;
    li.append(" ", text);
    return li;
  }

  /** The hours and minutes of the reader's language. */
  clock() {
    return new Intl.DateTimeFormat(language(), { hour: "2-digit", minute: "2-digit" });
  }

  /** The panel's words and what is shown, after a change of language, mute or game. */
  draw() {
    // the server keeps a spectator's line from the players until the match is over
    const watching = this.seat === null && this.status !== "finished";
    const title = this.box.querySelector("#chat-title");
    title.textContent = watching ? t("chat.title-spectators") : t("chat.title");
    this.box.querySelector("#chat-apart").hidden = !watching || this.muted;
    this.log.hidden = this.muted;
    this.box.querySelector("#chat-say").hidden = this.muted || !this.speaks;
    this.box.querySelector("#chat-muted").hidden = !this.muted;
    this.box.querySelector("#chat-empty").hidden = this.muted || this.log.childElementCount > 0;
    if (this.muted) this.showRefusal(null);
    // the button says what it does (no aria-pressed: a toggle's name would have to stay)
    this.box.querySelector("#chat-mute").textContent = this.muted ? t("chat.unmute") : t("chat.mute");
    const clock = this.clock();
    for (const when of this.log.querySelectorAll("time")) when.textContent = hhmm(clock, when.dateTime);
  }

  atEnd() {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 24;
  }

  scroll(follow) {
    if (follow) this.log.scrollTop = this.log.scrollHeight;
  }
}

function hhmm(clock, at) {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? "" : clock.format(date);
}
