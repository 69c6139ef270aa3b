// What every page declares for assistive technology and low vision (WCAG 2.2 AA):
// - 3.1.1: the html element's lang follows the language chosen, which Streamlit leaves at
//   "en"; a screen reader then reads each page in its own language's voice.
export default function ({ data }) {
  document.documentElement.lang = data.lang;
}
