export default function ({ parentElement, data }) {
  if (!window.__dpLive) {
    window.__dpLive = true;
    let pressed = false;
    // A stop a room pushed (ui.workshop.room_strip), by slider key: it holds until the thumb is
    // there, or until the person takes the thumb.
    const pushed = (window.__dpPushed = {});
    window.__dpStops = {};
    const keyOf = (box) => [...box.classList].find((c) => c.startsWith("st-key-")).slice(7);
    document.addEventListener("pointerdown", (event) => {
      pressed = true;
      const held = event.target.closest && event.target.closest("[class*='st-key-']");
      if (held && held.querySelector("input[type='range']")) delete pushed[keyOf(held)];
    }, true);
    document.addEventListener("pointerup", () => { pressed = false; }, true);
    // A slider's stop (-(stop + 1) while its thumb moves) to the charts bound to its
    // container, and to the sentences (the server's own while no thumb moves).
    const send = (box, value) => {
      box.value = value;
      box.dispatchEvent(new Event("dp-live"));
      const key = keyOf(box);
      for (const root of document.querySelectorAll(LIVE.replaceAll("data-live", "data-texts"))) {
        const texts = JSON.parse(root.dataset.texts)[key];
        if (texts === undefined) continue;
        paint(root, value < 0 ? texts[-value - 1] : JSON.parse(root.dataset.now));
      }
    };
    // A thumb that comes to rest on the stop it moved to is not announced again: its charts
    // show that stop already, and an announcement would make Vega lay them out and paint them
    // again (a jump of a pixel or two after each release). It comes to rest for good when
    // another thumb moves, which the charts pick otherwise.
    const moved = new Set();
    const announce = (box, value) => {
      if (box.value === value || (value >= 0 && box.value === -value - 1)) return;
      if (value < 0) {
        for (const other of moved) {
          const input = other !== box && other.querySelector("input[type='range']");
          if (input) send(other, Number(input.value));
        }
        moved.clear();
        moved.add(box);
      } else moved.delete(box);
      send(box, value);
    };
    const box = (input) => input.closest("[class*='st-key-']");
    const ranges = (node) =>
      node.querySelectorAll ? node.querySelectorAll("input[type='range']") : [];
    // A sentence the server drew (ui.common.live.text): painted at the stop its sliders show,
    // when it is drawn and when a run sends it anew (the markdown keeps its node and changes
    // its data-live).
    const texts = (node) => {
      if (!node.querySelectorAll) return;
      const found = [...node.querySelectorAll(LIVE)];
      if (node.matches && node.matches(LIVE)) found.push(node);
      for (const root of found) {
        const data = JSON.parse(root.dataset.live);
        root.removeAttribute("data-live");
        Object.assign(root.dataset, { key: data.key, base: data.style, label: data.label || "",
          note: data.note || "", now: JSON.stringify(data.now),
          texts: JSON.stringify(data.texts) });
        paint(root, data.now, true);
        const moved = atMovedStop(root);
        if (moved !== undefined) paint(root, moved);
      }
    };
    // The sentence at the stop of a thumb moved since the last run; undefined if none moved
    // (the server's sentence holds).
    const atMovedStop = (root) => {
      let said;
      for (const [key, stops] of Object.entries(JSON.parse(root.dataset.texts))) {
        const held = document.querySelector(`.st-key-${CSS.escape(key)}`);
        if (held && held.value < 0) said = stops[-held.value - 1];
      }
      return said;
    };
    // Every slider where it is (or at the stop pushed to it): when the page is drawn and
    // after each server run.
    const still = (inputs) => {
      for (const input of inputs) {
        const found = box(input);
        if (!found) continue;
        const key = keyOf(found), stop = pushed[key], value = Number(input.value);
        if (stop !== undefined && stop !== value) announce(found, -stop - 1);
        else {
          delete pushed[key];
          announce(found, value);
        }
      }
    };
    const thumb = (key) =>
      document.querySelector(`.st-key-${CSS.escape(key)} input[type='range']`);
    // A stop shown without a run (a room's push): false when the page has no such slider.
    window.__dpPush = (key, stop) => {
      const input = thumb(key);
      if (!input || !box(input) || stop > Number(input.max)) return false;
      pushed[key] = stop;
      still([input]);
      return true;
    };
    // The page caught up with a pushed stop: its thumb moved there as a key would move it
    // (the stop beside it set, then one arrow key onto it), so the run that follows is the
    // one a person's step makes. False when the slider is gone or already there.
    window.__dpMove = (key) => {
      const input = thumb(key), stop = pushed[key];
      if (!input || stop === undefined || Number(input.value) === stop) return false;
      const last = Number(input.max), beside = stop < last ? stop + 1 : stop - 1;
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
      set.call(input, String(beside));
      input.dispatchEvent(new Event("input", { bubbles: true }));
      const key_ = stop < last ? "ArrowLeft" : "ArrowRight";
      setTimeout(() => input.dispatchEvent(new KeyboardEvent("keydown", { key: key_,
        bubbles: true })), 0);
      return true;
    };
    new MutationObserver((records) => {
      for (const { type, target, addedNodes } of records) {
        if (type === "childList") {
          for (const node of addedNodes) {
            texts(node);
            still(ranges(node));
          }
        }
        else if (type === "attributes" && target.hasAttribute("data-live")) texts(target);
        else if (target.getAttribute("role") === "graphics-document") {
          // Vega drew a chart (it sets the role and its own label): a live one's is ours
          const chart = target.closest("[class*='__chart']");
          const key = chart && keyOf(chart).replace(/__chart$/, "");
          const root = key && document.querySelector(`.dp-live-alt[data-key='${CSS.escape(key)}']`);
          if (root) {  // one label, set only when it differs: setting it is a mutation too
            const moved = atMovedStop(root);
            paint(root, moved === undefined ? JSON.parse(root.dataset.now) : moved);
          }
        }
        else if (target.tagName === "INPUT" && target.type === "range" && box(target)) {
          if (keyOf(box(target)) in pushed) still([target]);  // caught up by ``__dpMove``
          else announce(box(target), -Number(target.value) - 1);
        }
      }
    }).observe(document.body,
      { subtree: true, childList: true, attributes: true,
        attributeFilter: ["value", "data-live", "role", "aria-label"] });
    const app = document.querySelector("[data-testid='stApp']");
    // After each run: every sentence still unpainted (one whose record the observer above
    // did not see through), and every slider where it is.
    new MutationObserver(() => {
      if (app.getAttribute("data-test-script-state") !== "notRunning") return;
      texts(document);
      if (!pressed) still(ranges(document));
    }).observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
    texts(document);
    still(ranges(document));
  }
  // the stops of the sliders this page's charts and sentences follow, and its story
  window.__dpStops = data.stops;
  window.__dpStory = data.story;
}

// A box's icon is hidden from screen readers: the box is read as its sentence.
const icon = (name) => `<span class="dp-live-icon" aria-hidden="true">${name}</span>`;
const VALUE = '<div class="dp-live-value"></div>';
const LAYOUTS = {
  "": '<p class="dp-live-value"></p>',
  strong: '<p class="dp-live-value"></p>',
  caption: '<p class="dp-live-value"></p>',
  metric: '<div class="dp-live-label"></div>' + VALUE,
  success: icon("verified_user") + `<div>${VALUE}<div class="dp-live-note"></div></div>`,
  "success-line": icon("verified_user") + '<span class="dp-live-value"></span>',
  info: icon("verified_user") + VALUE,
  notice: VALUE,
  warning: icon("warning") + VALUE,
  error: icon("gpp_bad") + VALUE,
};

// The catalogue's sentences use **bold** and `code` only.
function markdown(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/`(.+?)`/g, "<code>$1</code>")
    .replace(/\n\n/g, "<br>");
}

// What the relay's script paints: a live sentence, or a live chart's text alternative.
const LIVE = ".dp-live-text[data-live], .dp-live-alt[data-live]";

// A sentence, or [style, sentence] for a stop drawn in a box of its own (an error where
// there is no guarantee); drawn again in full when its style changes or the server sent it.
// A chart's text alternative goes into the chart's aria-label (once Vega has drawn it).
function paint(root, said, sent = false) {
  if (root.classList.contains("dp-live-alt")) {
    const chart = document.querySelector(
      `.st-key-${CSS.escape(root.dataset.key)}__chart [role='graphics-document']`);
    if (chart && chart.getAttribute("aria-label") !== said) chart.setAttribute("aria-label", said);
    return;
  }
  const [style, text] = Array.isArray(said) ? said : [root.dataset.base, said];
  if (sent || root.dataset.style !== style) {
    root.dataset.style = style;
    root.className = `dp-live-text dp-live-${style || "plain"}`;
    root.innerHTML = LAYOUTS[style] || LAYOUTS[""];
    const label = root.querySelector(".dp-live-label");
    if (label) label.innerHTML = markdown(root.dataset.label);
    const note = root.querySelector(".dp-live-note");
    if (note) note.innerHTML = markdown(root.dataset.note);
    root.title = style === "success-line" ? root.dataset.note : "";
  }
  root.querySelector(".dp-live-value").innerHTML = markdown(text);
}
