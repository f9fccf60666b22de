/* A game link's credential: the token rides in the URL's fragment (never sent to
   the server in a request line, a log or a Referer). Post it once to
   /games/<id>/session, which checks it and sets this game's HttpOnly cookie;
   drop the fragment from the address bar; reload to read the page with it, or,
   on a link's own page (/games/<id>/join..., data-next), open the page it is for:
   no page is refused before the cookie is set. */
(function () {
  "use strict";
  var body = document.body;
  var gameId = body.getAttribute("data-game-id");
  var next = body.getAttribute("data-next");
  var hash = window.location.hash;
  var status = document.getElementById("session-status");
  function say(text) { if (status) { status.textContent = text; } }
  if (!gameId || !hash || hash.length < 2) {
    if (gameId && next) {
      say("This link has lost its secret part (everything after #): open the whole link again.");
    }
    return;
  }
  var token = decodeURIComponent(hash.slice(1));
  var clean = window.location.pathname + window.location.search;
  window.history.replaceState(null, "", clean);
  var request = { token: token };
  var seat = body.getAttribute("data-seat");
  if (seat !== null && seat !== "") { request.seat = parseInt(seat, 10); }
  say("Checking the link…");
  fetch("/games/" + encodeURIComponent(gameId) + "/session", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request)
  }).then(function (response) {
    if (response.ok) {
      window.location.replace(next || clean);
      return null;
    }
    return response.json().then(function (data) {
      var e = (data && data.error) || {};
      say("This link does not open this game (" + (e.reason || response.status) + "): " +
          "check that it was copied whole, or ask whoever created the game for it again.");
    });
  }).catch(function () {
    say("The link could not be checked: the server did not answer.");
  });
})();
