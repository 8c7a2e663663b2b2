// Ludica table client: a thin script. The server renders every view; this file only opens the
// WebSocket, swaps in the HTML it receives, sends the seat's choices and keeps the lobby list.
"use strict";

(function () {
  const ROOMS_KEY = "ludica.rooms";

  // The lobby remembers the rooms of this browser by their page only: a link's token (after "#")
  // never goes into localStorage, which outlives the tab and is read by every page of the site.
  // The token lives in the tab's sessionStorage (see play()); lists kept by older versions are
  // cleaned the first time they are read.
  function withoutToken(r) {
    return { url: String(r.url || "").split("#")[0], room: r.room, game: r.game, label: r.label };
  }

  function myRooms() {
    let rooms;
    try { rooms = JSON.parse(localStorage.getItem(ROOMS_KEY) || "[]"); } catch (e) { return []; }
    if (!Array.isArray(rooms)) return [];
    if (rooms.some((r) => String(r.url || "").includes("#"))) store(rooms);
    return rooms.map(withoutToken);
  }

  function store(rooms) {
    try { localStorage.setItem(ROOMS_KEY, JSON.stringify(rooms.map(withoutToken).slice(0, 50))); } catch (e) { /* full */ }
  }

  function remember(entry) {
    const clean = withoutToken(entry);
    const rooms = myRooms().filter((r) => !(r.room === clean.room && r.label === clean.label));
    rooms.unshift(clean);
    store(rooms);
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // -- lobby --------------------------------------------------------------------------------
  function lobby() {
    const list = document.getElementById("my-rooms");
    if (!list) return;
    const rooms = myRooms();
    document.getElementById("my-rooms-empty").hidden = rooms.length > 0;
    rooms.forEach((r) => {
      const li = el("li");
      li.appendChild(el("a", { href: r.url }, `${r.game} — ${r.label}`));
      li.appendChild(document.createTextNode(` (room ${r.room})`));
      list.appendChild(li);
    });
  }

  function invites() {
    const table = document.getElementById("invites");
    if (!table) return;
    table.querySelectorAll("a.invite").forEach((a) => {
      a.textContent = new URL(a.getAttribute("href"), location.href).href;
    });
    const host = table.querySelector("tr[data-role='*host*'] a");
    if (host) remember({ url: "/play/" + table.dataset.room, room: table.dataset.room, game: table.dataset.game, label: "Host" });
  }


  // -- merging a new view into the page ------------------------------------------------------
  // The server sends whole fragments; they are merged into the page node by node, so what the
  // person is doing survives another seat's action or a clock tick: typed text (an input keeps
  // its identity: its action type, the chain of picked values above it and its field name), open
  // steps (<details>), the focus and the scroll position. Changed parts of the table are marked
  // for a moment (class "changed").
  const CHANGED_MS = 1500;

  function keyOf(node) {
    if (node.nodeType !== 1) return "#" + node.nodeType;
    if (node.id) return node.tagName + "#" + node.id;
    const d = node.dataset || {};
    let k = node.tagName;
    if (node.tagName === "FORM" || node.tagName === "DETAILS") k += "|" + (node.className || "") + "|" + (d.type || "") + "|" + (d.key || "");
    if (d.param !== undefined) k += `|${d.param}=${d.value}`;
    if (d.arg !== undefined) k += `|arg=${d.arg}`;
    if (d.list !== undefined) k += `|list=${d.list}`;
    if (d.pick !== undefined) k += `|pick=${d.pick}`;
    if (d.undo !== undefined) k += `|undo=${d.undo}`;
    if (d.part !== undefined) k += `|part=${d.part}`;
    return k;
  }

  // What the person changed stays: a field's value, a step's open state.
  function kept(el, name) {
    if (name === "open" && el.tagName === "DETAILS") return true;
    // a field the person has edited keeps its value (an untouched one follows the server)
    if (name === "value" && el.tagName === "INPUT") return el.value !== (el.getAttribute("value") || "");
    return false;
  }

  // Classes the page itself sets (a mark, a picked option) are not the server's to remove.
  const OWN_CLASSES = ["changed", "picked"];
  function serverClasses(value) {
    return (value || "").split(/\s+/).filter((c) => c && !OWN_CLASSES.includes(c)).join(" ");
  }

  function syncAttributes(old, nu, marks) {
    let changed = false;
    for (const a of [...nu.attributes]) {
      if (kept(old, a.name)) continue;
      if (a.name === "class") {
        if (serverClasses(old.getAttribute("class")) === serverClasses(a.value)) continue;
        const ours = (old.getAttribute("class") || "").split(/\s+/).filter((c) => OWN_CLASSES.includes(c));
        old.setAttribute("class", [a.value, ...ours].join(" ").trim());
        changed = true;
      } else if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); changed = true; }
    }
    for (const a of [...old.attributes]) {
      if (kept(old, a.name) || nu.hasAttribute(a.name)) continue;
      if (a.name === "class" && !serverClasses(a.value)) continue;
      old.removeAttribute(a.name); changed = true;
    }
    if (changed && marks) marks.add(old);
  }

  function morphNode(old, nu, marks) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== nu.nodeValue) {
        old.nodeValue = nu.nodeValue;
        if (marks && old.parentElement && old.nodeValue.trim()) marks.add(old.parentElement);
      }
      return;
    }
    syncAttributes(old, nu, marks);
    if (old.tagName === "TEXTAREA") return;  // its text is the person's
    morphChildren(old, nu, marks);
  }

  function morphChildren(oldParent, newParent, marks) {
    const pool = new Map();
    for (const n of [...oldParent.childNodes]) {
      const k = keyOf(n);
      if (!pool.has(k)) pool.set(k, []);
      pool.get(k).push(n);
    }
    let cursor = oldParent.firstChild;
    for (const nu of [...newParent.childNodes]) {
      const same = pool.get(keyOf(nu));
      const old = same && same.length ? same.shift() : null;
      let node = nu;
      if (old) { morphNode(old, nu, marks); node = old; }
      else if (marks && nu.nodeType === 1) marks.add(nu);
      else if (marks && nu.nodeType === 3 && nu.nodeValue.trim() && oldParent.nodeType === 1) marks.add(oldParent);
      if (node === cursor) cursor = cursor.nextSibling;
      else oldParent.insertBefore(node, cursor);
    }
    pool.forEach((rest) => rest.forEach((n) => n.remove()));
  }

  // Where a node sits, by keys (to find its twin if it had to be rebuilt).
  function pathOf(node, top) {
    const path = [];
    for (let n = node; n && n !== top; n = n.parentNode) {
      const k = keyOf(n);
      const twins = [...n.parentNode.childNodes].filter((s) => keyOf(s) === k);
      path.unshift([k, twins.indexOf(n)]);
    }
    return path;
  }

  function atPath(top, path) {
    let n = top;
    for (const [k, i] of path) {
      n = [...n.childNodes].filter((s) => keyOf(s) === k)[i];
      if (!n) return null;
    }
    return n;
  }

  function merge(container, html, highlight) {
    const tpl = document.createElement("template");
    tpl.innerHTML = html;
    if (!container.firstChild) { container.appendChild(tpl.content); return; }
    const active = document.activeElement;
    const focusPath = active && active !== document.body && container.contains(active) ? pathOf(active, container) : null;
    const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
    const marks = highlight ? new Set() : null;
    morphChildren(container, tpl.content, marks);
    if (focusPath && !active.isConnected) {
      const twin = atPath(container, focusPath);
      if (twin && twin.focus) {
        twin.focus({ preventScroll: true });
        if (caret && "setSelectionRange" in twin) { try { twin.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ } }
      }
    }
    if (marks && marks.size) {
      // mark the outermost changed parts only, then let the mark fade
      const outer = [...marks].filter((m) => m.isConnected && ![...marks].some((o) => o !== m && o.contains && o.contains(m)));
      outer.forEach((m) => m.classList.add("changed"));
      setTimeout(() => outer.forEach((m) => m.classList.remove("changed")), CHANGED_MS);
    }
  }

  // -- the table ------------------------------------------------------------------------------
  function play() {
    const root = document.getElementById("table");
    if (!root) return;
    const roomId = root.dataset.room;
    // The seat's token comes in the link's fragment (never sent to a server). It is moved at once
    // to this tab's sessionStorage and taken out of the address bar, so that it is not on the
    // screen, in a screenshot or in a link copied from the address bar; a reload finds it again.
    const TOKEN_KEY = "ludica.token." + roomId;
    let token = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (token) {
      try { sessionStorage.setItem(TOKEN_KEY, token); } catch (e) { /* private mode */ }
      history.replaceState(null, "", location.pathname + location.search);
    } else {
      try { token = sessionStorage.getItem(TOKEN_KEY) || ""; } catch (e) { token = ""; }
    }
    const $ = (id) => document.getElementById(id);
    let ws = null;
    let step = null;
    let logCount = 0;
    let retry = 500;
    let nextId = 1;
    let closed = false;

    function status(text) { $("status").textContent = text; }
    function refuse(msg) {
      const box = $("refusal");
      box.textContent = "Refused: " + msg.reason + (msg.section ? ` (rulebook: ${msg.section})` : "");
      box.hidden = false;
    }

    // Every act carries the step it was chosen at and a fresh idempotency key: sent twice (a
    // double click, a resend after a reconnection), it is applied once.
    function newKey() {
      const bytes = new Uint8Array(12);
      crypto.getRandomValues(bytes);
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    }

    function send(message) {
      if (!ws || ws.readyState !== WebSocket.OPEN) { status("Not connected; reconnecting…"); return; }
      message.id = nextId++;
      ws.send(JSON.stringify(message));
    }

    // Exports are fetched with the token in a header (never in a URL) and saved as a file.
    async function download(name) {
      let reply;
      try {
        reply = await fetch(`/rooms/${roomId}/${name}`, { headers: { "X-Ludica-Token": token } });
      } catch (e) { refuse({ reason: "the export could not be fetched; try again" }); return; }
      if (!reply.ok) {
        let reason = `the export failed (${reply.status})`;
        try { reason = (await reply.json()).reason || reason; } catch (e) { /* not JSON */ }
        refuse({ reason });
        return;
      }
      const url = URL.createObjectURL(await reply.blob());
      const a = el("a", { href: url, download: `${root.dataset.game} ${roomId} ${name}` });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    }

    // A broadcast carries the tail of the story (log_start..log_total); a sync carries all of it.
    function showLog(state) {
      const log = $("log");
      if (state.log_start === 0 && state.log_total < logCount) { log.innerHTML = ""; logCount = 0; }
      if (state.log_start > logCount || state.log_total < logCount) { send({ type: "sync" }); return; }
      const frag = document.createDocumentFragment();
      for (let i = logCount; i < state.log_total; i++) {
        const tpl = document.createElement("template");
        tpl.innerHTML = state.log[i - state.log_start].trim();
        frag.appendChild(tpl.content);
      }
      const atEnd = logCount === 0 || log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
      log.appendChild(frag);
      logCount = state.log_total;
      if (atEnd) log.scrollTop = log.scrollHeight;  // the story box shows the newest entry
    }

    function showFairness(f) {
      const box = $("fairness");
      box.innerHTML = "";
      box.appendChild(el("p", {}, "Seed hash published at the start: "));
      box.lastChild.appendChild(el("code", { class: "hash" }, f.seed_hash));
      if (f.seed) {
        const p = el("p", {}, "Revealed seed: ");
        p.appendChild(el("code", { class: "seed" }, f.seed));
        box.appendChild(p);
      }
      if (f.physical_seat) box.appendChild(el("p", {}, "Physical mode: dice and cards are typed in by hand."));
    }

    function showAdmin(state) {
      const section = $("admin");
      section.hidden = !state.manage;
      if (!state.manage) return;
      const body = $("admin-body");
      if (body.dataset.ready) return;
      body.dataset.ready = "1";
      const ul = el("ul");
      [...state.seats, { role: "*spectator*", label: "Spectators" }].forEach((s) => {
        const li = el("li", {}, s.label + " ");
        const b = el("button", { type: "button", "data-reissue": s.role }, "Issue a new link");
        li.appendChild(b);
        li.appendChild(el("output", { "data-link-for": s.role }));
        ul.appendChild(li);
      });
      body.appendChild(ul);
      const close = el("p");
      close.appendChild(el("button", { type: "button", "data-close-room": "1" }, "Close the room and delete it"));
      body.appendChild(close);
    }

    function showNotices(notices) {
      const list = $("notices");
      list.innerHTML = "";
      notices.forEach((text) => list.appendChild(el("li", {}, text)));
      list.hidden = notices.length === 0;
    }

    let timer = null;
    function showTimer(t) {
      const box = $("timer");
      if (timer) { clearInterval(timer); timer = null; }
      box.hidden = !t;
      if (!t) return;
      const deadline = Date.now() / 1000 + t.left;
      const tick = () => {
        const left = Math.round(deadline - Date.now() / 1000);
        const m = Math.floor(Math.max(left, 0) / 60), s = Math.max(left, 0) % 60;
        box.textContent = left > 0 ? `Time left for this decision: ${m}:${String(s).padStart(2, "0")}` : "Time is up for this decision.";
        if (left <= 0 && timer) { clearInterval(timer); timer = null; }
      };
      tick();
      timer = setInterval(tick, 1000);
    }

    // A form the seat sent is emptied once the game has moved on (its fields are otherwise kept
    // by the merge, and the same kind of decision may come straight back, e.g. the next memory).
    let sent = null;

    // A watcher's place holds while others move: unless the update is the viewer's own decision,
    // what is at the top of the window stays there when the parts above it grow or shrink.
    function placeOnScreen() {
      if (window.scrollY <= 0) return null;
      const node = document.elementFromPoint(Math.floor(window.innerWidth / 2), 8);
      return node && node !== document.documentElement && node !== document.body
        ? { node, top: node.getBoundingClientRect().top, y: window.scrollY } : { node: null, top: 0, y: window.scrollY };
    }
    function holdPlace(place) {
      if (!place) return;
      if (place.node && place.node.isConnected) window.scrollBy(0, place.node.getBoundingClientRect().top - place.top);
      else window.scrollTo(0, place.y);
    }

    let talked = false;
    let lastState = null;
    function onState(state) {
      lastState = state;
      if (state.step !== step) hideConfirm();
      if (!talked) { talked = true; send({ type: "chat_history" }); }
      if (sent && state.step > sent.step) {
        if (sent.form.isConnected) sent.form.reset();
        sent = null;
      }
      step = state.step;
      root.dataset.step = String(state.step);
      root.dataset.over = state.over ? "1" : "";
      const place = state.your_turn ? null : placeOnScreen();
      merge($("pending"), state.html.pending, false);
      merge($("news"), state.html.news || "", false);
      merge($("view"), state.html.view, true);
      const keepFocus = document.activeElement && $("actions").contains(document.activeElement);
      merge($("actions"), state.html.actions, false);
      $("you-act").hidden = state.seat === null;
      $("who").textContent = "— " + state.you;
      showLog(state);
      showFairness(state.fairness);
      showTimer(state.timer);
      showAdmin(state);
      showNotices(state.notices || []);
      holdPlace(place);
      $("export-record").disabled = !state.over;
      status(state.over ? "The game is over." : (state.asked === false && state.your_turn
        ? "Waiting for others; you may act meanwhile." : (state.your_turn ? "Your decision." : "Waiting for others.")));
      document.title = (state.your_turn ? "● " : "") + root.dataset.game + " — Ludica";
      if (keepFocus && !$("actions").contains(document.activeElement)) {
        const first = $("actions").querySelector("button, input, select");
        if (first) first.focus({ preventScroll: true });
      }
      if (!remember.done) {
        remember.done = true;
        remember({ url: location.pathname, room: roomId, game: root.dataset.game, label: state.you });
      }
    }

    // Table talk (ludica/table/chat.py): lines are text, shown with textContent, never markup.
    function chatLine(line) {
      const li = el("li", { class: "chat-" + line.kind });
      let who = line.who;
      if (line.kind === "whisper") who += " → " + line.to + " (whisper)";
      if (line.kind === "narrate") who += " (narrating)";
      li.appendChild(el("strong", {}, who + ": "));
      li.appendChild(el("span", {}, line.text));
      return li;
    }
    function onChat(msg) {
      const log = $("chat-log");
      const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
      if (msg.full) {
        log.textContent = "";
        const to = $("chat-to");
        to.textContent = "";
        to.appendChild(el("option", { value: "" }, "the table"));
        if (msg.narrate) to.appendChild(el("option", { value: "*narrate*" }, "the table, narrating the scene"));
        for (const t of msg.targets || []) to.appendChild(el("option", { value: t.role }, t.label + " only (whisper)"));
        $("chat-form").hidden = !msg.speak;
        $("chat-note").hidden = !!msg.speak;
      }
      for (const line of msg.lines || (msg.line ? [msg.line] : [])) log.appendChild(chatLine(line));
      if (stick || msg.full) log.scrollTop = log.scrollHeight;
    }

    function onMessage(event) {
      const msg = JSON.parse(event.data);
      if (msg.type === "state") { $("refusal").hidden = true; onState(msg); }
      else if (msg.type === "refused") refuse(msg);
      else if (msg.type === "notice") {
        const list = $("notices");
        list.appendChild(el("li", {}, msg.text));
        list.hidden = false;
      } else if (msg.type === "chat") onChat(msg);
      else if (msg.type === "closed") { closed = true; status("The host closed this room: " + msg.reason); }
      else if (msg.type === "invite") {
        const out = document.querySelector(`output[data-link-for='${CSS.escape(msg.role)}']`);
        if (out) out.textContent = " " + new URL(msg.url, location.href).href;
      }
    }

    function connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(`${proto}//${location.host}/ws/${roomId}`);
      ws.onopen = () => { retry = 500; talked = false; status("Connected."); ws.send(JSON.stringify({ type: "hello", token })); };
      ws.onmessage = onMessage;
      ws.onclose = (e) => {
        if (e.code === 4403) {  // a revoked link: what only that seat could see leaves the screen
          for (const id of ["view", "actions", "news", "pending", "log", "chat-log"]) $(id).textContent = "";
          $("chat-form").hidden = true;
          status("This link is not valid any more.");
          return;
        }
        if (e.code === 4404 || closed) { if (!closed) status("This room was closed."); return; }
        status("Connection lost; reconnecting…");
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 8000);
      };
    }

    // A number field says the consequence of the value typed, as the rules will apply it (the
    // server computed each value's: data-effects); a value out of range says so.
    document.addEventListener("input", (event) => {
      const input = event.target;
      if (!root.contains(input) || !input.dataset || !input.dataset.effects) return;
      const said = document.getElementById(input.getAttribute("aria-describedby"));
      if (!said) return;
      const each = JSON.parse(input.dataset.effects);
      said.textContent = each[String(parseInt(input.value, 10))] || `type ${input.min} to ${input.max}`;
    });

    function readField(input) {
      const kind = input.dataset.kind;
      const raw = input.value;
      if (kind === "int") return parseInt(raw, 10);
      if (kind === "intlist") return raw.split(/[\s,]+/).filter(Boolean).map((x) => parseInt(x, 10));
      if (kind === "json") return JSON.parse(raw);
      return raw;
    }

    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (!root.contains(form)) return;
      event.preventDefault();
      if (form.id === "chat-form") {
        const text = $("chat-text").value.trim();
        const to = $("chat-to").value;
        if (!text) return;
        const message = { type: "chat", text };
        if (to === "*narrate*") message.narrate = true;
        else if (to) message.to = to;
        send(message);
        $("chat-text").value = "";
        return;
      }
      const narration = $("narration").value;
      if (form.classList.contains("act")) {
        const fields = {};
        form.querySelectorAll("[data-arg]").forEach((i) => { fields[i.dataset.arg] = readField(i); });
        send({ type: "act", step, key: newKey(), index: parseInt(form.dataset.index, 10), fields, narration });
        sent = { form, step };
      } else if (form.classList.contains("chance")) {
        const outcome = {};
        form.querySelectorAll("[data-arg]").forEach((i) => { outcome[i.dataset.arg] = readField(i); });
        form.querySelectorAll("[data-list]").forEach((i) => {
          (outcome[i.dataset.list] = outcome[i.dataset.list] || []).push(readField(i));
        });
        send({ type: "act", step, key: newKey(), chance: outcome, narration });
      }
      $("narration").value = "";
    });

    // Play by touching: a drawn component carries data-pick='{"param": value, ...}' (and may
    // carry data-pick-type="action_type"); touching it opens the composer's matching steps and
    // puts the focus on the option to confirm (a second touch plays it).
    // Play by touching (like the best sites): touching a drawn component with data-pick='{"param":
    // value}' (and maybe data-pick-type) finds the composer's option for it — or, when the choice
    // is one button, the legal action whose arguments match. A choice completed by the touch is
    // offered in a confirm bar ("Place a worker on the Farm? Confirm / Cancel"); touching the same
    // component again confirms it. A choice that still needs a pick or a typed field is opened.
    let lastPicked = null;
    function legalForm(wanted, type) {
      const legal = (lastState && lastState.legal) || [];
      for (let i = 0; i < legal.length; i++) {
        const a = legal[i];
        if (type && a.type !== type) continue;
        const args = a.args || {};
        if (Object.entries(wanted).every(([k, v]) => JSON.stringify(args[k]) === JSON.stringify(v))) {
          const form = $("actions").querySelector(`form.act[data-index='${i}']`);
          if (form) return form;
        }
      }
      return null;
    }
    function confirmBar(form) {
      const bar = $("confirm-bar");
      const button = form.querySelector("button[type=submit]");
      bar.querySelector(".what").textContent = (button && button.getAttribute("aria-label")) || "Play this?";
      bar.hidden = false;
      bar.form = form;
      if (button) { button.focus({ preventScroll: true }); button.scrollIntoView({ block: "nearest" }); }
    }
    function hideConfirm() { const bar = $("confirm-bar"); bar.hidden = true; bar.form = null; }
    function pickFromComponent(component) {
      let wanted;
      try { wanted = JSON.parse(component.dataset.pick); } catch (e) { return false; }
      const type = component.dataset.pickType;
      const bar = $("confirm-bar");
      if (lastPicked === component && !bar.hidden && bar.form && bar.form.isConnected) {
        bar.form.requestSubmit(); hideConfirm(); lastPicked = null; return true;
      }
      lastPicked = component;
      const scopes = [...$("actions").querySelectorAll(type ? `details.choice[data-type='${CSS.escape(type)}'], form.act[data-type='${CSS.escape(type)}']` : "details.choice, form.act")];
      for (const scope of scopes) {
        let node = scope, found = null;
        for (const [param, value] of Object.entries(wanted)) {
          const json = JSON.stringify(value);
          const hit = [...node.querySelectorAll("li[data-param]")].find((li) => li.dataset.param === param && li.dataset.value === json);
          if (!hit) { found = null; break; }
          found = hit; node = hit;
        }
        if (!found) continue;
        if (scope.tagName === "DETAILS") scope.open = true;
        for (let d = found.querySelector("details") || found.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
        const target = found.querySelector("button, summary, input");
        $("actions").querySelectorAll(".picked").forEach((e) => e.classList.remove("picked"));
        found.classList.add("picked");
        const form = found.querySelector(":scope > form.act:not(.with-fields)");
        if (form && !found.querySelector(":scope > details")) { confirmBar(form); return true; }
        if (target) { target.focus(); target.scrollIntoView({ block: "nearest" }); }
        return true;
      }
      const single = legalForm(wanted, type);  // the only legal card: one button
      if (single && !single.classList.contains("with-fields")) { confirmBar(single); return true; }
      if (single) { single.querySelector("input, button").focus(); return true; }
      return false;
    }

    document.addEventListener("click", (event) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const component = target.closest("[data-pick]");
      if (component && root.contains(component)) { pickFromComponent(component); return; }
      if (target.closest("#confirm-bar")) {
        const bar = $("confirm-bar");
        if (target.classList.contains("yes") && bar.form && bar.form.isConnected) bar.form.requestSubmit();
        if (target.matches("button")) { hideConfirm(); lastPicked = null; }
        return;
      }
      if (!(target instanceof HTMLElement)) return;
      if (target.dataset.undo) send({ type: "undo", mode: target.dataset.undo });
      if (target.dataset.reissue) send({ type: "reissue", role: target.dataset.reissue });
      if (target.dataset.export) download(target.dataset.export);
      if (target.dataset.closeRoom && confirm("Close this room for everyone and delete its record?")) {
        send({ type: "close_room" });
      }
    });

    // a drawn component offered to the keyboard (tabindex) is picked with Enter or Space too
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const target = event.target;
      if (!(target instanceof Element) || !target.matches("[data-pick]") || !root.contains(target)) return;
      event.preventDefault();
      pickFromComponent(target);
    });

    if (!token) { status("This page needs an invitation link (it ends with #…)."); return; }
    connect();
  }

  document.addEventListener("DOMContentLoaded", () => { lobby(); invites(); play(); });
})();
