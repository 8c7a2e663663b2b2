// Ludica table client: a thin script. The server renders every view; this file only opens the
// WebSocket, swaps in the HTML it receives, sends the seat's choices and keeps the lobby list.
"use strict";

(function () {
  const ROOMS_KEY = "ludica.rooms";

  function myRooms() {
    try { return JSON.parse(localStorage.getItem(ROOMS_KEY) || "[]"); } catch (e) { return []; }
  }

  function remember(entry) {
    const rooms = myRooms().filter((r) => r.url !== entry.url);
    rooms.unshift(entry);
    try { localStorage.setItem(ROOMS_KEY, JSON.stringify(rooms.slice(0, 50))); } catch (e) { /* full */ }
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
    if (host) remember({ url: host.getAttribute("href"), room: table.dataset.room, game: table.dataset.game, label: "Host" });
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
      const where = [msg.rule, msg.section].filter(Boolean).join("; ");
      box.textContent = "Refused: " + msg.reason + (where ? ` [${where}]` : "");
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

    function onState(state) {
      step = state.step;
      root.dataset.step = String(state.step);
      root.dataset.over = state.over ? "1" : "";
      $("pending").innerHTML = state.html.pending;
      $("news").innerHTML = state.html.news || "";
      $("view").innerHTML = state.html.view;
      const keepFocus = document.activeElement && $("actions").contains(document.activeElement);
      $("actions").innerHTML = state.html.actions;
      $("you-act").hidden = state.seat === null;
      $("who").textContent = "— " + state.you;
      showLog(state);
      showFairness(state.fairness);
      showTimer(state.timer);
      showAdmin(state);
      showNotices(state.notices || []);
      status(state.over ? "The game is over." : (state.your_turn ? "Your decision." : "Waiting for others."));
      document.title = (state.your_turn ? "● " : "") + root.dataset.game + " — Ludica";
      if (keepFocus) {
        const first = $("actions").querySelector("button, input, select");
        if (first) first.focus();
      }
      if (!remember.done) {
        remember.done = true;
        remember({ url: location.pathname + "#" + token, room: roomId, game: root.dataset.game, label: state.you });
      }
    }

    function onMessage(event) {
      const msg = JSON.parse(event.data);
      if (msg.type === "state") { $("refusal").hidden = true; onState(msg); }
      else if (msg.type === "refused") refuse(msg);
      else if (msg.type === "notice") {
        const list = $("notices");
        list.appendChild(el("li", {}, msg.text));
        list.hidden = false;
      } else if (msg.type === "closed") { closed = true; status("The host closed this room: " + msg.reason); }
      else if (msg.type === "invite") {
        const out = document.querySelector(`output[data-link-for='${CSS.escape(msg.role)}']`);
        if (out) out.textContent = " " + new URL(msg.url, location.href).href;
      }
    }

    function connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(`${proto}//${location.host}/ws/${roomId}`);
      ws.onopen = () => { retry = 500; status("Connected."); ws.send(JSON.stringify({ type: "hello", token })); };
      ws.onmessage = onMessage;
      ws.onclose = (e) => {
        if (e.code === 4403) { status("This link is not valid any more."); return; }
        if (e.code === 4404 || closed) { if (!closed) status("This room was closed."); return; }
        status("Connection lost; reconnecting…");
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 8000);
      };
    }

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
      const narration = $("narration").value;
      if (form.classList.contains("act")) {
        const fields = {};
        form.querySelectorAll("[data-arg]").forEach((i) => { fields[i.dataset.arg] = readField(i); });
        send({ type: "act", step, key: newKey(), index: parseInt(form.dataset.index, 10), fields, narration });
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
    function pickFromComponent(component) {
      let wanted;
      try { wanted = JSON.parse(component.dataset.pick); } catch (e) { return false; }
      const type = component.dataset.pickType;
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
        if (target) { target.focus(); target.scrollIntoView({ block: "nearest" }); found.classList.add("picked"); }
        return true;
      }
      return false;
    }

    document.addEventListener("click", (event) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const component = target.closest("[data-pick]");
      if (component && root.contains(component)) { pickFromComponent(component); return; }
      if (!(target instanceof HTMLElement)) return;
      if (target.dataset.undo) send({ type: "undo", mode: target.dataset.undo });
      if (target.dataset.reissue) send({ type: "reissue", role: target.dataset.reissue });
      if (target.dataset.export) download(target.dataset.export);
      if (target.dataset.closeRoom && confirm("Close this room for everyone and delete its record?")) {
        send({ type: "close_room" });
      }
    });

    if (!token) { status("This page needs an invitation link (it ends with #…)."); return; }
    connect();
  }

  document.addEventListener("DOMContentLoaded", () => { lobby(); invites(); play(); });
})();
