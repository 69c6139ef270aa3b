// What every page declares for assistive technology and low vision (WCAG 2.2 AA):
// - 3.1.1: the html element's lang follows the language chosen, which Streamlit leaves at
//   "en"; a screen reader then reads each page in its own language's voice.
// - 2.1.1: a table wider than the screen (on a phone) scrolls in its own box, which the keyboard
//   must be able to reach to scroll it: each table's box takes focus (tabindex 0), now and as
//   tables are drawn.
// - 4.1.3: a status message (a room's count of answers) is read out when it changes, not only
//   when a reader goes to it: its container (ui.common.accessible.status, key "…__status") is a
//   polite live region, which Streamlit keeps while the message in it is redrawn.
// - 1.4.10: on a phone's screen (data.width wide at most) the page folds its data controls
//   away (ui.common.shell.settings_area): the browser says so when the server does not know.
const SCROLLING = "[data-testid='stTable'] > div:not([tabindex])";
const STATUS = "[class*='__status']:not([role])";

function declared(root) {
  root.querySelectorAll(SCROLLING).forEach((box) => box.setAttribute("tabindex", "0"));
  for (const box of root.querySelectorAll(STATUS)) {
    if (![...box.classList].some((c) => c.startsWith("st-key-") && c.endsWith("__status"))) continue;
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    box.setAttribute("aria-atomic", "true");
  }
}

export default function ({ data, setStateValue }) {
  document.documentElement.lang = data.lang;
  const narrow = window.innerWidth <= data.width;
  // Whether the server's run knows this screen yet ("reporting" until a phone's report has
  // been heard): the browser tests read a page once it says "known".
  document.documentElement.dataset.screen = narrow === data.narrow ? "known" : "reporting";
  if (narrow !== data.narrow) setStateValue("narrow", narrow);
  declared(document);
  if (!window.__dpTablesWatched) {
    window.__dpTablesWatched = true;
    new MutationObserver(() => declared(document)).observe(document.body, {
      childList: true,
      subtree: true,
    });
  }
}
