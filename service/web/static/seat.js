// A seat's page (service/web/seat.py): the link's fragment becomes the game's
// cookie; then one WebSocket (/play) carries the seat's game both ways: the
// page sends its moves (the server builds every command), the server pushes
// each move's result, the seat's events and, at each new turn, the board, the
// question and the choices. After a disconnect the page reconnects and resumes
// after the last version its log holds.
(function () {
  "use strict";
  var body = document.body;
  var game = body.dataset.gameId;
  var seat = body.dataset.seat;
  var base = "/games/" + encodeURIComponent(game) + "/seat/" + encodeURIComponent(seat);
  var message = document.getElementById("message");
  var socket = null;

  function say(text, kind) {
    if (!message) { return; }
    message.textContent = text;
    message.className = kind || "";
  }

  // Where the last refused answer was given (its form's data-choice, or the
  // index of its button): the refusal is written there too, beside Send, once
  // the pieces are refreshed (the top of the page may be off-screen).
  var refusedAt = null;

  function sayNearAnswer(text) {
    var where = refusedAt;
    refusedAt = null;
    if (!where) { return; }
    var anchor = null;
    if (where.choice) {
      anchor = document.querySelector('form.choice[data-choice="' + where.choice + '"] fieldset');
    } else {
      var button = document.querySelectorAll("#play button.action")[where.action];
      anchor = button ? button.parentNode : null;
    }
    if (!anchor) { return; }
    var note = document.createElement("p");
    note.className = "bad refusal";
    note.setAttribute("role", "alert");
    note.textContent = text;
    anchor.appendChild(note);
    if (note.scrollIntoView) { note.scrollIntoView({block: "nearest"}); }
  }

  function refusalText(data, status) {
    var error = data && data.error;
    if (error) { return "Refused: " + error.reason + ": " + error.message; }
    return "Refused (HTTP " + status + ")";
  }

  // 1. A link's fragment: trade it for the game's cookie, drop it, reload. (Also
  // when only the fragment changes: a link pasted over this very page.)
  function exchange() {
    var fragment = window.location.hash.slice(1);
    // Not an anchor of this page (#main): a token.
    if (!fragment || document.getElementById(fragment)) { return false; }
    var token = decodeURIComponent(fragment);
    history.replaceState(null, "", window.location.pathname + window.location.search);
    say("Opening your seat…");
    fetch("/games/" + encodeURIComponent(game) + "/session", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token: token, seat: Number(seat)})
    }).then(function (response) {
      return response.json().then(function (data) {
        if (response.ok) { window.location.reload(); } else {
          say(refusalText(data, response.status) +
              " (open the seat's link again once this is fixed)", "bad");
        }
      });
    }).catch(function () { say("The server cannot be reached.", "bad"); });
    return true;
  }
  window.addEventListener("hashchange", exchange);
  if (exchange()) { return; }
  if (body.dataset.session !== "true") { return; }

  // The move under way: {id, where}, and once accepted the version it made
  // (the page stays busy until its pieces at that version are in).
  var sending = null;
  var over = body.dataset.over === "true";
  var retries = 0;
  var shownPieces = {};
  var liveStatus = document.getElementById("live-status");

  // body[data-busy=true] while a move is under way: the controls are about to
  // change (a test, or a person, waits for "false").
  function busy() {
    body.dataset.busy = sending ? "true" : "false";
    var controls = document.querySelectorAll("#play button, #play input, #play select");
    for (var i = 0; i < controls.length; i++) { controls[i].disabled = sending !== null; }
  }

  function swap(id, html) {  // unchanged pieces stay as they are (and keep focus)
    if (shownPieces[id] === html) { return; }
    shownPieces[id] = html;
    document.getElementById(id).innerHTML = html;
  }

  function lastLogged() {
    var items = document.querySelectorAll("#log li[data-version]");
    return items.length ? Number(items[items.length - 1].dataset.version) : 0;
  }

  function showLive(text, kind) {
    if (!liveStatus) { return; }
    liveStatus.textContent = text;
    liveStatus.className = "status " + (kind || "");
  }

  // 2. What the server pushes: the board, the question and the choices at a
  // version (pieces), the seat's events (log), the moves' results, the feed's status.
  function showPieces(data) {
    swap("board", data.board);
    document.getElementById("board").dataset.version = data.version;
    swap("pending", data.pending);
    swap("play", data.play);
    document.getElementById("version").textContent = data.version;
    swap("outcome", data.outcome);
    document.getElementById("outcome").hidden = !data.over;
    body.dataset.version = data.version;
    if (data.over) { over = true; body.dataset.over = "true"; }
    if (sending && sending.version && (data.version >= sending.version || data.over)) {
      sending = null;
    }
  }

  function showLog(entries) {
    var log = document.getElementById("log");
    var seen = lastLogged();
    entries.forEach(function (entry) {
      if (entry.version <= seen) { return; }
      var li = document.createElement("li");
      li.dataset.version = entry.version;
      li.value = entry.version;
      li.textContent = entry.text;
      log.appendChild(li);
      seen = entry.version;
    });
    var tail = Number(body.dataset.logTail) || 0;  // the latest lines only: the replay has all
    while (tail > 0 && log.children.length > tail) { log.removeChild(log.firstElementChild); }
    log.scrollTop = log.scrollHeight;
  }

  function showResult(result) {
    if (!sending || result.command_id !== sending.id) { return; }
    var where = sending.where;
    if (result.accepted) {
      say("Done (version " + result.version + ").", "good");
      var shown = Number(body.dataset.version);
      sending = shown >= result.version || over ? null : {id: sending.id, version: result.version};
      return;
    }
    sending = null;
    var refusal = refusalText({error: result.error}, 0);
    say(refusal, "bad");
    refusedAt = where;
    sayNearAnswer(refusal);
  }

  function receive(event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    if (data.pieces) { showPieces(data.pieces); }
    if (data.log) { showLog(data.log); }
    (data.results || []).forEach(showResult);
    if (typeof data.status === "string" && data.status) {
      if (data.status.indexOf("ended") === 0) { over = true; showLive("the game is over", ""); }
      else { showLive(data.status, data.status === "live" ? "live" : "degraded"); }
    }
    if (data.error) {
      // A server going away (UNAVAILABLE): the page reconnects, after its last version.
      if (data.error.code !== "UNAVAILABLE") {
        over = true;  // refused for good (a seat taken back, too many streams): said, not retried
        say(refusalText(data, 0), "bad");
        showLive("not live", "");
      }
    }
    busy();
  }

  // 3. The socket: opened once the page is drawn, reopened after a drop.
  function connect() {
    if (over || !window.WebSocket) {
      showLive(over ? "the game is over" : "not live", "");
      return;
    }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + base + "/play");
    socket.onopen = function () {
      retries = 0;
      // drawn: the version the pieces show (the server sends them again only if newer).
      socket.send(JSON.stringify({after: lastLogged(), drawn: Number(body.dataset.version)}));
      showLive("live", "live");
    };
    socket.onmessage = receive;
    socket.onclose = function () {
      socket = null;
      if (sending) {
        sending = null;
        say("The connection dropped before the move's answer; the page shows the game " +
            "as it is once it reconnects.", "bad");
        busy();
      }
      if (over) { if (body.dataset.over === "true") { showLive("the game is over", ""); } return; }
      showLive("reconnecting…", "offline");
      var wait = Math.min(10000, 500 * Math.pow(2, retries));
      retries += 1;
      window.setTimeout(connect, wait);
    };
  }

  // 4. A move: a listed action, or a choice's answer (the server builds it).
  function commandId() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return String(Date.now()) + "-" + String(Math.random()).slice(2);
  }

  function send(move, where) {
    if (!socket || socket.readyState !== 1) {
      say("The server cannot be reached; reconnecting.", "bad");
      refusedAt = where;
      sayNearAnswer("Not sent: the page is reconnecting.");
      return;
    }
    var version = Number(document.getElementById("board").dataset.version);
    // As the terminal does: a move answering a named decision is judged by
    // that decision (stale only if it is no longer pending), else by version.
    move.expected_version = move.decision_id ? 0 : version;
    move.command_id = commandId();
    sending = {id: move.command_id, where: where};
    busy();
    say("Sending…");
    socket.send(JSON.stringify(move));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.action");
    if (!button || button.disabled) { return; }
    event.preventDefault();
    var buttons = Array.prototype.slice.call(document.querySelectorAll("#play button.action"));
    send({command_json: button.dataset.json, decision_id: button.dataset.decisionId || ""},
         {action: buttons.indexOf(button)});
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("choice")) { return; }
    event.preventDefault();
    var answer = {};
    var fields = form.querySelectorAll("input, select");
    for (var i = 0; i < fields.length; i++) {
      var field = fields[i];
      if (!field.name || (field.type === "checkbox" && !field.checked)) { continue; }
      (answer[field.name] = answer[field.name] || []).push(field.value);
    }
    // A path's button is its answer (a card, then a place: the key of that path).
    var submitter = event.submitter;
    if (submitter && submitter.name) { answer[submitter.name] = [submitter.value]; }
    send({decision_id: form.dataset.decisionId || "", choice: form.dataset.choice,
          answer: answer}, {choice: form.dataset.choice});
  });

  connect();
})();
