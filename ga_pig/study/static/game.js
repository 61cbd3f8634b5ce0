// The game page: shows the state the server sends and plays out its events; every decision is the
// server's to check (the state's token goes with each move).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const {key, delay} = JSON.parse($("study").textContent);
  const FACES = {"1": "\u2680", "2": "\u2681", "3": "\u2682", "4": "\u2683", "5": "\u2684", "6": "\u2685"};
  let game = JSON.parse($("initial").textContent);
  let busy = false;
  const UNREACHABLE = "The server could not be reached: check your connection, then try again or reload the page.";

  function face(label) {
    if (label === null || label === undefined) return "\u00a0";
    const parts = String(label).split(" ");
    return parts.every((p) => p in FACES) ? parts.map((p) => FACES[p]).join("") : String(label);
  }

  function buttons(enabled) {
    $("roll").disabled = !enabled;
    $("hold").disabled = !enabled;
    if ($("hint")) $("hint").disabled = !enabled;
  }

  function render() {
    $("game-no").textContent = game.game_id;
    $("you").textContent = game.you;
    $("them").textContent = game.them;
    $("k").textContent = game.k;
    $("next").hidden = !game.over;
    // once the game is over the only move is Next (or Finish): Roll, Hold and Hint go
    for (const id of ["roll", "hold", "hint"]) if ($(id)) $(id).hidden = game.over;
    $("next").textContent = game.last ? "Finish" : "Next game";
    buttons(game.your_turn && !busy);
    if (game.over) {
      $("status").textContent = game.stalemate ? "Both passed: nobody wins this game." :
        (game.won ? "You won this game!" : "The computer won this game.");
    } else if (game.your_turn) {
      $("status").textContent = game.pass_ends && game.k === 0 ?
        "Your turn. The computer passed: if you pass too, nobody wins." : "Your turn: roll or hold?";
    }
  }

  function say(event) {
    const who = event.who === "you" ? "You" : "The computer";
    if (event.action === "hold") {
      return event.passed ? `${who} passed.` : `${who} held and banked ${event.k}.`;
    }
    let line = `${who} rolled ${event.die}: ${event.result}`;
    if (event.banked === null) return `${line}. Turn total ${event.k_after}.`;
    return `${line}. Score ${event.banked}.`;
  }

  function show(event) {
    if (event.action === "roll") $("die").textContent = face(event.die);
    $("k").textContent = event.banked === null ? event.k_after : 0;
    $("you").textContent = event.you;
    $("them").textContent = event.them;
    const item = document.createElement("li");
    item.textContent = say(event);
    $("log").prepend(item);
    $("status").textContent = item.textContent;
  }

  async function play(events) {
    for (const event of events) {
      show(event);
      if (event.who === "computer") await new Promise((r) => setTimeout(r, delay));
    }
  }

  async function post(path, values) {
    const response = await fetch(`/p/${key}/${path}`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(values)})
      .catch(() => { throw new Error(UNREACHABLE); });
    const body = await response.json().catch(() => ({error: "the server's answer could not be read"}));
    if (!response.ok) throw new Error(body.error || `refused (${response.status})`);
    return body;
  }

  async function act(action) {
    if (busy) return;
    busy = true;
    buttons(false);
    $("next").hidden = true;
    $("hint-text").textContent = "";
    let problem = null;
    try {
      const answer = await post("move", {token: game.token, action: action});
      if (answer.done) { window.location.reload(); return; }
      if (action === "next") { $("log").textContent = ""; $("die").textContent = "\u00a0"; }
      await play(answer.events);
      game = answer.game;
    } catch (error) {
      // a refused move records nothing: show why, with the game as the server has it now
      problem = error.message;
      try {
        const response = await fetch(`/p/${key}/game`);
        if (!response.ok) { window.location.reload(); return; }
        game = await response.json();
      } catch {
        problem = UNREACHABLE;
      }
    } finally {
      busy = false;
    }
    render();
    if (problem) $("status").textContent = problem;  // after render, which would write over it
  }

  $("roll").addEventListener("click", () => act("roll"));
  $("hold").addEventListener("click", () => act("hold"));
  $("next").addEventListener("click", () => act("next"));
  if ($("hint")) {
    $("hint").addEventListener("click", async () => {
      try {
        const h = await post("hint", {token: game.token});
        $("hint-text").textContent = `Rolling wins ${(100 * h.p_roll).toFixed(1)}% of the time, holding ` +
          `${(100 * h.p_hold).toFixed(1)}%: ${h.optimal} is best.`;
      } catch (error) { $("hint-text").textContent = error.message; }
    });
  }
  for (const event of game.recent || []) show(event);
  if (game.your_turn && (game.recent || []).length) $("k").textContent = game.k;
  render();
})();
