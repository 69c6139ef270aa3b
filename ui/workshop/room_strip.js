function keepCookie({ name, value, seconds, url }) {
  if (!url) {  // no cookie route (streamlit run app.py): the script keeps it
    const kept = value ? `${value}; max-age=${seconds}` : "; max-age=0";
    document.cookie = `${name}=${kept}; path=/; samesite=strict`;
    return Promise.resolve(true);
  }
  const asked = (window.__dpCookies ||= {});  // name -> [value, its request] once a page
  if (asked[name] && asked[name][0] === value) return asked[name][1];
  const request = fetch(url, { method: "POST", body: JSON.stringify({ name, value }),
    headers: { "Content-Type": "application/json" }, credentials: "same-origin",
    signal: AbortSignal.timeout(5000) })
    .then((answer) => answer.ok)
    .catch(() => false)
    .then((kept) => {
      if (!kept && asked[name] && asked[name][1] === request) delete asked[name];  // next run
      return kept;
    });
  asked[name] = [value, request];
  return request;
}

function reloadWhenConnectedAgain() {
  if (window.__dpAgainWatch) return;
  window.__dpAgainWatch = true;
  const name = "data-test-connection-state";
  let lost = false;
  new MutationObserver((records) => {
    for (const { target } of records) {
      if (target.getAttribute(name) !== "CONNECTED") lost = true;
      else if (lost) location.reload();
    }
  }).observe(document.body, { attributes: true, subtree: true, attributeFilter: [name] });
}
