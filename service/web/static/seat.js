// A seat's page (service/web/seat.py): the link's fragment becomes the game's
// cookie; moves are posted as JSON (the server builds every command); the
// seat's live feed refreshes the board, the log and the choices.
(function () {
  "use strict";
  var body = document.body;
  var game = body.dataset.gameId;
  var seat = body.dataset.seat;
  var base = "/games/" + encodeURIComponent(game) + "/seat/" + encodeURIComponent(seat);
  var message = document.getElementById("message");
  var source = null;
  var refreshing = null;
  var again = false;

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

  var sending = false;
  var target = Number(body.dataset.version);  // the newest version this page knows of
  var shownPieces = {};

  // body[data-busy=true] while a move or a refresh is under way: the controls
  // are about to change (a test, or a person, waits for "false").
  function busy() {
    var on = sending || refreshing !== null;
    body.dataset.busy = on ? "true" : "false";
    var controls = document.querySelectorAll("#play button, #play input, #play select");
    for (var i = 0; i < controls.length; i++) { controls[i].disabled = sending; }
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

  // 2. The changing pieces, from /panel.
  function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = Promise.resolve();
    busy();
    refreshing = fetch(base + "/panel?after=" + lastLogged(), {credentials: "same-origin"})
      .then(function (response) {
        return response.json().then(function (data) {
          if (!response.ok) { say(refusalText(data, response.status), "bad"); return; }
          target = Math.max(target, data.version);
          swap("board", data.board);
          document.getElementById("board").dataset.version = data.version;
          swap("pending", data.pending);
          swap("play", data.play);
          document.getElementById("version").textContent = data.version;
          var log = document.getElementById("log");
          var holder = document.createElement("ol");
          holder.innerHTML = data.log;
          var seen = lastLogged();
          Array.prototype.slice.call(holder.children).forEach(function (li) {
            if (Number(li.dataset.version) > seen) { log.appendChild(li); }
          });
          log.scrollTop = log.scrollHeight;
          var outcome = document.getElementById("outcome");
          swap("outcome", data.outcome);
          outcome.hidden = !data.over;
          body.dataset.version = data.version;
          body.dataset.over = data.over ? "true" : "false";
          if (data.over) { stopLive("the game is over"); }
        });
      })
      .catch(function () { say("The server cannot be reached; retrying.", "bad"); })
      .then(function () {
        refreshing = null;
        if (again) { again = false; refresh(); } else { busy(); }
      });
    return refreshing;
  }

  // 3. A move: a listed action, or a choice's answer (the server builds it).
  function commandId() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return String(Date.now()) + "-" + String(Math.random()).slice(2);
  }

  function send(move, where) {
    var refusal = "";
    var version = Number(document.getElementById("board").dataset.version);
    // As the terminal does: a move answering a named decision is judged by
    // that decision (stale only if it is no longer pending), else by version.
    move.expected_version = move.decision_id ? 0 : version;
    move.command_id = commandId();
    sending = true;
    busy();
    say("Sending…");
    return fetch(base + "/act", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(move)
    }).then(function (response) {
      return response.json().then(function (data) {
        if (response.ok) {
          target = Math.max(target, data.version);
          var told = (data.events || []).join(" ");
          say("Done (version " + data.version + ")" + (told ? ": " + told : "."), "good");
        } else {
          refusal = refusalText(data, response.status);
          say(refusal, "bad");
        }
      });
    }).catch(function () {
      refusal = "The server cannot be reached.";
      say(refusal, "bad");
    }).then(function () {
      sending = false;
      refusedAt = refusal ? where : null;
      return refresh().then(function () { if (refusal) { sayNearAnswer(refusal); } });
    });
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

  // 4. Live: the seat's own feed; every event refreshes the pieces.
  var liveStatus = document.getElementById("live-status");

  function showLive(text, kind) {
    if (!liveStatus) { return; }
    liveStatus.textContent = text;
    liveStatus.className = "status " + (kind || "");
  }

  function stopLive(why) {
    if (source) { source.close(); source = null; }
    showLive(why, "");
  }

  function startLive() {
    if (body.dataset.over === "true" || !window.EventSource) {
      showLive(body.dataset.over === "true" ? "the game is over" : "not live", "");
      return;
    }
    source = new EventSource(base + "/live?after=" + body.dataset.version);
    source.onopen = function () { showLive("live", "live"); };
    source.onerror = function () { if (source) { showLive("reconnecting…", "offline"); } };
    source.onmessage = function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data.event) {
        // A move of this page is refreshed once its reply is in; any other
        // version, once.
        if (Number(data.event.version) > target) {
          target = Number(data.event.version);
          refresh();
        }
      } else if (typeof data.status === "string") {
        if (data.status.indexOf("ended") === 0) { refresh(); stopLive("the game is over"); }
        else { showLive(data.status, data.status === "live" ? "live" : "degraded"); }
      }
    };
    source.addEventListener("error", function (event) {
      if (!event.data) { return; }  // the connection's own error: it reconnects
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      // A server going away (UNAVAILABLE): the browser reconnects, after the last id.
      if (data.error && data.error.code === "UNAVAILABLE") { return; }
      say(refusalText(data, 0), "bad");
      stopLive("not live");
    });
  }

  startLive();
})();
