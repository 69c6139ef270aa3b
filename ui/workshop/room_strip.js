function keepCookie({ name, value, seconds }) {
  const kept = value ? `${value}; max-age=${seconds}` : "; max-age=0";
  document.cookie = `${name}=${kept}; path=/; samesite=strict`;
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
