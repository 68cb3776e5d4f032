// The room's sounds, made on the spot with WebAudio (no sound files to fetch): the rattle of
// dice and the knock of a checker put down. Quiet and short; silent when the player has
// turned sound off, and before the page has had a click or key (browsers keep audio locked
// until then).

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short burst of filtered noise: wood on wood, its pitch set by `hz`. */
function knock(ctx, at, hz, gain, length = 0.05) {
  const samples = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / samples) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = hz;
  filter.Q.value = 4;
  const level = ctx.createGain();
  level.gain.value = gain;
  source.connect(filter).connect(level).connect(ctx.destination);
  source.start(at);
}

/** Play one of the room's sounds ("dice" or "checker") unless `on` is false. */
export function sound(kind, on) {
  if (!on) return;
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  if (kind === "dice") {
    // two dice tumbling: a few knocks, each a little softer
    [0, 0.07, 0.13, 0.22, 0.27].forEach((dt, i) => knock(ctx, now + dt, 2200 + 500 * (i % 2), 0.5 - i * 0.08, 0.035));
  } else {
    knock(ctx, now, 700, 0.8, 0.07);
  }
}
