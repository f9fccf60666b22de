// A table's page: reload it when the table changes (a player sat down or left,
// the game started or ended), unless the visitor is typing a name.
(function () {
  "use strict";
  const body = document.body;
  const id = body.dataset.tableId;
  let version = body.dataset.version;
  let over = body.dataset.over;
  let wait = 1000;
  async function look() {
    try {
      const answer = await fetch("/tables/" + id + "/state", {cache: "no-store"});
      if (answer.ok) {
        const now = await answer.json();
        const typing = document.activeElement && document.activeElement.tagName === "INPUT" &&
          document.activeElement.value;
        if ((String(now.version) !== version || String(now.over) !== over) && !typing) {
          location.reload();
          return;
        }
        wait = 1000;
      } else {
        wait = Math.min(wait * 2, 10000);
      }
    } catch (e) {
      wait = Math.min(wait * 2, 10000);
    }
    setTimeout(look, wait);
  }
  setTimeout(look, wait);
})();
