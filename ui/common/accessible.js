// What every page declares for assistive technology and low vision (WCAG 2.2 AA):
// - 3.1.1: the html element's lang follows the language chosen, which Streamlit leaves at
//   "en"; a screen reader then reads each page in its own language's voice.
// - 2.1.1: a table wider than the screen (on a phone) scrolls in its own box, which the keyboard
//   must be able to reach to scroll it: each table's box takes focus (tabindex 0), now and as
//   tables are drawn.
const SCROLLING = "[data-testid='stTable'] > div:not([tabindex])";

function focusableTables(root) {
  root.querySelectorAll(SCROLLING).forEach((box) => box.setAttribute("tabindex", "0"));
}

export default function ({ data }) {
  document.documentElement.lang = data.lang;
  focusableTables(document);
  if (!window.__dpTablesWatched) {
    window.__dpTablesWatched = true;
    new MutationObserver(() => focusableTables(document)).observe(document.body, {
      childList: true,
      subtree: true,
    });
  }
}
