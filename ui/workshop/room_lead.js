const OWN = new Set(["lang", "present", "room", "lead"]);

function view() {
  const params = {};
  for (const [key, value] of new URLSearchParams(location.search)) {
    if (!OWN.has(key)) (params[key] ||= []).push(value);
  }
  for (const [key, stops] of Object.entries(window.__dpStops || {})) {
    const input = document.querySelector(`.st-key-${CSS.escape(key)} input[type='range']`);
    if (!input || Number(input.max) + 1 !== stops.codes.length) continue;
    const code = stops.codes[Number(input.value)];
    if (code === stops.default) delete params[key];
    else params[key] = [code];
  }
  const page = location.pathname.replace(/\/+$/, "").split("/").pop() || "home";
  const sorted = {};
  for (const key of Object.keys(params).sort()) sorted[key] = params[key];
  return { page, params: sorted };
}

export default function ({ data, setTriggerValue }) {
  reloadWhenConnectedAgain();
  const lead = (window.__dpLead ||= {});
  lead.cookie = keepCookie(data.cookie);  // published with it: once the route has set it
  lead.data = data;
  lead.trigger = setTriggerValue;
  if (lead.timer || !data.url) return;
  const publish = async () => {
    const now = JSON.stringify(view());
    if (lead.busy || now === lead.published) return;
    lead.busy = true;
    try {
      await lead.cookie;
      const answer = await fetch(lead.data.url, { method: "POST", body: now,
        headers: { "Content-Type": "application/json" }, credentials: "same-origin",
        signal: AbortSignal.timeout(5000) });
      if (answer.ok) lead.published = now;
      else if (answer.status === 410) {  // the room closed: the strip says so
        clearInterval(lead.timer);
        lead.timer = null;
        lead.trigger("closed", Date.now());
      }  // else (the cookie not kept yet, a store out of reach): again at the next look
    } catch (error) {
      // offline for a moment: publish at the next look
    } finally {
      lead.busy = false;
    }
  };
  lead.timer = setInterval(publish, 100);
  publish();
  return () => {  // the strip is gone (another page draws its own at once)
    clearInterval(lead.timer);
    lead.timer = null;
  };
}
