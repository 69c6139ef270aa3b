const OWN = new Set(["lang", "present", "room", "lead"]);
const CAUGHT_UP_WITHIN = 10;  // seconds a page's own step may take to write its stop

function here() {
  const params = {};
  for (const [key, value] of new URLSearchParams(location.search)) {
    if (!OWN.has(key)) (params[key] ||= []).push(value);
  }
  const page = location.pathname.replace(/\/+$/, "").split("/").pop() || "home";
  return { page, params };
}

// Whether this page is not at the room's view (its page, or a parameter of its own aside). A
// parameter the view leaves out is its default, which a follower's address may write: it
// differs only where its slider's default is known and another.
function elsewhere(room) {
  const now = here();
  return room.page !== now.page || differing(now, room).some((key) => {
    const stops = (window.__dpStops || {})[key];
    return key in room.params || (stops !== undefined && stops.default !== null &&
      JSON.stringify(now.params[key]) !== JSON.stringify([stops.default]));
  });
}

// The parameters whose values differ between this page's address and the room's view.
function differing(now, room) {
  const keys = new Set([...Object.keys(now.params), ...Object.keys(room.params)]);
  return [...keys].filter((key) =>
    JSON.stringify(now.params[key] || []) !== JSON.stringify(room.params[key] || []));
}

// Show the room's view without a strip run: the key of the one live slider whose stop it
// moved (which the page holds); "" when it shows that view already, or has opened the section
// shown (its tab clicked); null when it cannot.
function shownHere(room) {
  const now = here();
  if (room.page !== now.page || !window.__dpPush) return null;
  const moved = differing(now, room);
  if (moved.length === 0) return "";
  if (moved.length > 1) return null;
  const story = window.__dpStory;
  if (story && moved[0] === story.key) return opened(story, room.params[story.key]);
  const stops = (window.__dpStops || {})[moved[0]];
  if (!stops) return null;
  const code = (room.params[moved[0]] || [stops.default])[0];
  const stop = stops.codes.indexOf(code);
  return stop >= 0 && window.__dpPush(moved[0], stop) ? moved[0] : null;
}

// Another section: its tab clicked, as a person would (the page's own run, often of a
// fragment alone); null when the page shows no such tab.
function opened(story, value) {
  const index = story.sections.indexOf((value || [story.sections[0]])[0]);
  const tabs = document.querySelectorAll(`.st-key-${CSS.escape(story.tabs)} [role='tab']`);
  if (index < 0 || !tabs[index]) return null;
  tabs[index].click();
  return "";
}

// Anything else: the page at the room's address (each person's own parameters kept), opened
// as the browser's back button opens one (Streamlit's history navigation: one run of that
// page at that address, where the strip drops the session's own settings first).
function navigated(room, code) {
  const params = new URLSearchParams({ room: code });
  for (const [key, value] of new URLSearchParams(location.search)) {
    if (OWN.has(key) && key !== "room") params.append(key, value);
  }
  for (const [key, values] of Object.entries(room.params)) {
    for (const value of values) params.append(key, value);
  }
  const base = location.pathname.replace(/[^/]*$/, "");
  try {
    history.replaceState(history.state, "", `${base}${room.page}?${params}`);
    window.dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  } catch (error) {
    return false;
  }
  return true;
}

export default function ({ data, setTriggerValue }) {
  reloadWhenConnectedAgain();
  keepCookie(data.cookie);
  const watch = (window.__dpRoom ||= {});
  watch.data = data;
  watch.trigger = setTriggerValue;
  clearTimeout(watch.leaving);
  const drawn = JSON.stringify([data.view, data.asked]);
  if (watch.drawn !== drawn) {
    watch.drawn = drawn;
    watch.sent = null;
  }
  const send = (what) => {
    clearTimeout(watch.later);
    if (watch.sent === what) return;
    watch.sent = what;
    watch.trigger("moved", what);
  };
  const told = (room) => {
    const now = watch.data;
    watch.room = room;
    watch.told = Date.now();
    if (room.error) return send("unreachable");
    if (!room.open) return send("closed");
    if (room.asked !== now.asked) return send(`asked ${room.asked}`);
    if (now.alone || room.view === now.view || room.view === watch.shown) return;
    const moved = shownHere(room);
    if (moved === null) {
      watch.shown = room.view;
      return navigated(room, now.code) || send(`view ${room.view}`);
    }
    watch.shown = room.view;
    clearTimeout(watch.later);
    if (!moved) return;  // the page shows this view already
    // Caught up later, at a moment spread over the room: the thumb moved as a key would (an
    // ordinary step's run), or, where it cannot be, the strip opening the room's view.
    const wait = 1000 * (now.quiet + Math.random() * (room.spread || 0));
    const code = JSON.stringify(room.params[moved] || null);
    watch.later = setTimeout(() => {
      if (!window.__dpMove(moved)) return send(`view ${room.view}`);
      // the step's run writes the stop to the address: where it has not, the strip opens it
      watch.later = setTimeout(() => {
        if (JSON.stringify(here().params[moved] || null) !== code) send(`view ${room.view}`);
      }, 1000 * CAUGHT_UP_WITHIN);
    }, wait);
  };
  const poll = async () => {
    if (watch.busy) return;
    watch.busy = true;
    try {
      const answer = await fetch(watch.data.url, { cache: "no-store",
        signal: AbortSignal.timeout(5000) });
      if (!(answer.headers.get("content-type") || "").includes("json")) {
        watch.trigger("moved", `look ${Date.now()}`);
      } else if (!answer.ok) {
        send("unreachable");
      } else {
        const room = await answer.json();
        if (!room.open) send("closed");
        else if (JSON.stringify([room.view, room.asked]) !== watch.drawn) send(
          JSON.stringify([room.view, room.asked]));
      }
    } catch (error) {
      // offline for a moment: ask again at the next tick
    } finally {
      watch.busy = false;
    }
  };
  // The page at the room's view in the end, whatever was lost on the way (a run cut short by
  // the next move on a busy machine): still elsewhere, at rest and untouched since the move,
  // once every catch-up had its time, it opens the view, once for each view.
  window.__dpElsewhere = () => Boolean(watch.room && elsewhere(watch.room));  // for tests
  if (!watch.reconcile) {  // a person's own touch since the room's last move is theirs to keep
    for (const kind of ["pointerdown", "keydown"]) {
      document.addEventListener(kind, (event) => {
        if (event.isTrusted) watch.touched = Date.now();
      }, true);
    }
  }
  watch.reconcile ||= setInterval(() => {
    const room = watch.room, now = watch.data;
    if (!watch.code || !room || !room.open || room.error || now.alone ||
        watch.reconciled === room.view || watch.touched > watch.told) return;
    const quiet = now.quiet + (room.spread || 0) + CAUGHT_UP_WITHIN + 2;
    const app = document.querySelector("[data-testid='stApp']");
    if (Date.now() - watch.told < 1000 * quiet || !app ||
        app.getAttribute("data-test-script-state") !== "notRunning") return;
    if (!elsewhere(room)) return;
    watch.reconciled = room.view;
    navigated(room, now.code) || send(`view ${room.view}`);
  }, 1000);
  if (watch.code !== data.code) {
    watch.code = data.code;
    if (watch.source) watch.source.close();
    clearInterval(watch.timer);
    watch.timer = null;
    const source = (watch.source = new EventSource(data.events));
    source.onmessage = (event) => told(JSON.parse(event.data));
    source.onerror = () => {
      // EventSource opens it again by itself, unless the answer was no event stream at all
      if (source.readyState === EventSource.CLOSED && watch.source === source && !watch.timer)
        watch.timer = setInterval(poll, watch.data.every * 1000);
    };
  }
  // Unmounted: another page's strip mounts it again at once; else the room is left.
  return () => {
    watch.leaving = setTimeout(() => {
      if (watch.source) watch.source.close();
      clearInterval(watch.timer);
      Object.assign(watch, { source: null, timer: null, code: null });
    }, 3000);
  };
}
