/* A game's page, live: the spectator's feed (/games/<id>/live, Server-Sent
   Events, each event's id its version) appends the log in version order,
   fills any gap from /games/<id>/log, and redraws the board from
   /games/<id>/board?version=N. EventSource resumes after the last event id it
   saw (Last-Event-ID); a closed feed is reopened after the last version shown. */
(function () {
  "use strict";
  var body = document.body;
  var gameId = body.getAttribute("data-game-id");
  if (!gameId || body.getAttribute("data-page") !== "game") { return; }
  if (window.location.hash.length > 1) { return; } /* fragment.js is exchanging it */
  var base = "/games/" + encodeURIComponent(gameId);
  var log = document.getElementById("log");
  var statusEl = document.getElementById("feed-status");
  var have = parseInt(body.getAttribute("data-last-version") || "0", 10) || 0;
  /* The page shows the latest lines only; the whole log is the replay's. */
  var tail = parseInt(body.getAttribute("data-log-tail") || "0", 10) || 0;
  var earlier = document.getElementById("log-earlier");
  var source = null;
  var ended = false;
  var queue = Promise.resolve();
  var boardWanted = 0;
  var boardBusy = false;

  function setStatus(kind, text) {
    statusEl.className = "status " + kind;
    statusEl.textContent = text;
  }

  function append(version, text) {
    if (version <= have) { return; }
    var li = document.createElement("li");
    li.setAttribute("data-version", String(version));
    li.value = version;
    li.textContent = text;
    log.appendChild(li);
    while (tail > 0 && log.children.length > tail) {
      log.removeChild(log.firstElementChild);
      if (earlier) { earlier.hidden = false; }
    }
    have = version;
    body.setAttribute("data-last-version", String(have));
    log.scrollTop = log.scrollHeight;
  }

  function skipTo(version) {
    /* The lines before version are past the page's tail: it starts again there. */
    while (log.firstChild) { log.removeChild(log.firstChild); }
    if (earlier) { earlier.hidden = false; }
    have = version - 1;
  }

  function fill(upTo) {
    /* Versions between the last one shown and upTo, from the game's history:
       no more than the page keeps (a page away for a long while asks for its
       tail only, not every line it missed). */
    var from = tail > 0 ? Math.max(have, upTo - tail) : have;
    return fetch(base + "/log?after=" + from, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : { lines: [] }; })
      .then(function (data) {
        var lines = data.lines || [];
        if (lines.length && from > have && lines[0].version === from + 1) { skipTo(from + 1); }
        lines.forEach(function (line) {
          if (line.version === have + 1 && line.version <= upTo) { append(line.version, line.text); }
        });
      });
  }

  function replaceById(fragment, id) {
    var fresh = fragment.querySelector("#" + id);
    var old = document.getElementById(id);
    if (fresh && old) { old.replaceWith(fresh); }
  }

  function drawBoard() {
    if (boardBusy || boardWanted === 0) { return; }
    var version = boardWanted;
    boardWanted = 0;
    boardBusy = true;
    fetch(base + "/board?version=" + version, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var current = document.getElementById("board");
        var shown = current ? parseInt(current.getAttribute("data-version"), 10) : 0;
        if (shown > version) { return; } /* an older answer arriving late */
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("board");
        var over = fresh !== null && fresh.getAttribute("data-over") === "true";
        replaceById(doc, "board");
        replaceById(doc, "pending");
        replaceById(doc, "outcome");
        document.getElementById("version").textContent = String(version);
        if (over) { body.setAttribute("data-over", "true"); }
      })
      .catch(function () { boardWanted = Math.max(boardWanted, version); })
      .then(function () { boardBusy = false; drawBoard(); });
  }

  function wantBoard(version) {
    boardWanted = Math.max(boardWanted, version);
    drawBoard();
  }

  function onEvent(event) {
    var version = event.version;
    if (version <= have) { return Promise.resolve(); }
    var ready = version > have + 1 ? fill(version - 1) : Promise.resolve();
    return ready.then(function () {
      if (version === have + 1) {
        append(version, event.line || event.text || event.type);
      } else if (version > have + 1) {
        /* Still a gap (the history did not answer): reopen the feed after `have`. */
        reopen();
        return;
      }
      wantBoard(version);
    });
  }

  function finish() {
    ended = true;
    if (source) { source.close(); source = null; }
    setStatus("ended", "ended");
    wantBoard(have);
  }

  function onMessage(message) {
    var data;
    try { data = JSON.parse(message.data); } catch (e) { return; }
    queue = queue.then(function () {
      if (ended) { return null; }
      if (data.event) { return onEvent(data.event); }
      if (typeof data.status === "string") {
        var text = data.status;
        if (text.indexOf("ended") === 0) { finish(); }
        else if (text === "live") { setStatus("live", "live"); }
        else { setStatus(text.indexOf("degraded") === 0 ? "degraded" : "offline", text); }
      }
      return null;
    });
  }

  function onRefusal(message) {
    var data = {};
    try { data = JSON.parse(message.data); } catch (e) { /* keep {} */ }
    var e = data.error || {};
    setStatus("offline", "offline: " + (e.reason || "refused") + " " + (e.message || ""));
  }

  function open() {
    if (ended) { return; }
    source = new EventSource(base + "/live?after=" + have);
    source.onmessage = onMessage;
    source.addEventListener("error", function (ev) {
      if (ev.data) { onRefusal(ev); }
    });
    source.onerror = function () {
      if (ended) { return; }
      setStatus("offline", "offline");
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        window.setTimeout(open, 3000);
      }
    };
  }

  function reopen() {
    if (source) { source.close(); source = null; }
    window.setTimeout(open, 500);
  }

  if (body.getAttribute("data-over") === "true") {
    setStatus("ended", "ended");
    return;
  }
  open();
})();
