/* A replay: the slider and the step buttons fetch the board at a version
   (/games/<id>/board?version=N, as the seat chosen: &seat=n or all), show the
   log up to it, and keep ?version=N in the address bar without reloading; the
   seat selector opens the replay as that seat at the version shown. */
(function () {
  "use strict";
  var body = document.body;
  var gameId = body.getAttribute("data-game-id");
  if (!gameId || body.getAttribute("data-page") !== "replay") { return; }
  var base = "/games/" + encodeURIComponent(gameId);
  var slider = document.getElementById("slider");
  var output = document.getElementById("version");
  var log = document.getElementById("log");
  var max = parseInt(slider.max, 10);
  var events = [];
  try { events = JSON.parse(document.getElementById("events-json").textContent); } catch (e) { events = []; }
  var buttons = {
    first: document.getElementById("first"), prev: document.getElementById("prev"),
    next: document.getElementById("next"), last: document.getElementById("last")
  };
  var asked = 0;
  var seat = body.getAttribute("data-seat") || "";
  var seatQuery = seat ? "&seat=" + encodeURIComponent(seat) : "";
  var seatForm = document.getElementById("seat-view");
  var seatVersion = document.getElementById("seat-view-version");
  var seatSelect = document.getElementById("seat-select");
  if (seatForm && seatSelect) {
    seatSelect.addEventListener("change", function () { seatForm.submit(); });
  }

  function current() { return parseInt(slider.value, 10); }

  function lineOf(ev) {
    var li = document.createElement("li");
    li.setAttribute("data-version", String(ev.version));
    li.value = ev.version;
    li.textContent = ev.text;
    return li;
  }

  function linesUpTo(version) {
    /* How many of the events (in version order) are at or before version. */
    var low = 0, high = events.length;
    while (low < high) {
      var mid = (low + high) >> 1;
      if (events[mid].version <= version) { low = mid + 1; } else { high = mid; }
    }
    return low;
  }

  function drawLog(version) {
    /* The log up to version: lines added or taken at its end only, so a step
       costs the lines it changes, not the whole log (the page came with the
       lines up to the version it shows, the same as events' first ones). */
    var want = linesUpTo(version);
    while (log.children.length > want) { log.removeChild(log.lastElementChild); }
    while (log.children.length < want) { log.appendChild(lineOf(events[log.children.length])); }
    var old = log.querySelector("li.current");
    if (old) { old.className = ""; old.removeAttribute("aria-current"); }
    var mark = log.lastElementChild;
    if (mark && mark.getAttribute("data-version") === String(version)) {
      mark.className = "current";
      mark.setAttribute("aria-current", "step");
      log.scrollTop = mark.offsetTop - log.offsetTop - log.clientHeight / 2;
    }
  }

  function enable(version) {
    buttons.first.disabled = buttons.prev.disabled = version <= 1;
    buttons.next.disabled = buttons.last.disabled = version >= max;
  }

  function replaceById(doc, id) {
    var fresh = doc.getElementById(id);
    var old = document.getElementById(id);
    if (fresh && old) { old.replaceWith(fresh); }
  }

  function go(version) {
    version = Math.max(1, Math.min(max, version));
    slider.value = String(version);
    slider.setAttribute("aria-valuetext", "version " + version + " of " + max);
    output.textContent = String(version);
    enable(version);
    drawLog(version);
    window.history.replaceState(null, "", window.location.pathname + "?version=" + version +
                                seatQuery);
    if (seatVersion) { seatVersion.value = String(version); }
    asked = version;
    fetch(base + "/board?version=" + version + seatQuery, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || asked !== version) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        replaceById(doc, "board");
        replaceById(doc, "pending");
        replaceById(doc, "outcome");
      });
  }

  slider.addEventListener("input", function () { go(current()); });
  buttons.first.addEventListener("click", function () { go(1); });
  buttons.prev.addEventListener("click", function () { go(current() - 1); });
  buttons.next.addEventListener("click", function () { go(current() + 1); });
  buttons.last.addEventListener("click", function () { go(max); });
  enable(current());
})();
