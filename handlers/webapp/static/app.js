/* Karata's table in a Telegram Mini App. The server sends the whole table as a snapshot (what
   this player may see, what they may tap now as the chat keyboard offers it, every word already in
   the player's language); the page only draws it and sends taps back as tree node numbers.
   API: docs/MINIAPP.md. */
(function () {
  "use strict";

  var tg = (window.Telegram && window.Telegram.WebApp) || null;
  var initData = (tg && tg.initData) || "";
  var unsafe = (tg && tg.initDataUnsafe) || {};

  // The page's own few words, for when no snapshot (with its `labels`) has arrived yet.
  var WORDS = {
    sw: {
      loading: "Inapakia meza…",
      reconnecting: "Inaunganisha tena…",
      no_init: "Fungua meza hii kutoka Telegram: ukurasa huu unahitaji utambulisho wako wa Telegram.",
      no_table: "Huko kwenye meza yoyote sasa. Anzisha mchezo kwenye kikundi kwa /newgame.",
      failed: "Meza haikupatikana.",
      open_chat: "Fungua gumzo",
      confirm: "Thibitisha",
      back: "Rudi",
      score: "Alama",
      results: "Matokeo ya raundi",
      retry: "Jaribu tena"
    },
    en: {
      loading: "Loading the table…",
      reconnecting: "Reconnecting...",
      no_init: "Open this table from Telegram: the page needs your Telegram identity.",
      no_table: "You are not at a table now. Start a game in a group with /newgame.",
      failed: "The table could not be loaded.",
      open_chat: "Open the chat",
      confirm: "Confirm",
      back: "Back",
      score: "Score",
      results: "Round results",
      retry: "Try again"
    }
  };

  var state = {
    language: pickLanguage(),
    me: null,
    tableId: null,
    snap: null,
    busy: false,
    ws: null,
    wsAttempt: 0,
    wsTimer: null,
    live: false,
    offline: false,
    results: null,      // the latest round results received: {table, edition, lines}
    resultsOpen: false, // whether their block is open (a new edition opens it)
    watchers: 0         // how many watch the table (a player's page is told on its socket)
  };

  // How a snapshot came: FRESH (asked for: a load, a tap's answer, a reconnection) or LIVE (a
  // change pushed on the socket).
  var FRESH = "fresh", LIVE = "live";

  var app = document.getElementById("app");
  var toastEl = document.getElementById("toast");

  function pickLanguage() {
    var code = (unsafe.user && unsafe.user.language_code) || "";
    // Swahili first: Telegram has no Swahili interface, so only a clear "en" means English.
    return code.slice(0, 2) === "en" ? "en" : "sw";
  }

  function word(key) {
    var labels = (state.snap && state.snap.labels) || {};
    if (labels[key]) return labels[key];
    return (WORDS[state.language] || WORDS.sw)[key] || WORDS.en[key] || key;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // ----- talking to the server ------------------------------------------------------------
  var BASE = new URL("api/", document.baseURI);

  function api(path, body) {
    var options = { headers: { "X-Telegram-Init-Data": initData } };
    if (body !== undefined) {
      options.method = "POST";
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(new URL(path, BASE), options).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok && !data.error) data = { error: "http_" + response.status, message: "" };
        data.httpStatus = response.status;
        return data;
      });
    });
  }

  function chooseTable(me) {
    var ids = (me.tables || []).map(function (t) { return String(t.id); });
    var wanted = new URLSearchParams(location.search).get("table") || "";
    var start = String(unsafe.start_param || "").replace(/^t/, "");
    if (wanted && ids.indexOf(wanted) >= 0) return wanted;
    if (start && ids.indexOf(start) >= 0) return start;
    if (me.current !== null && me.current !== undefined) return String(me.current);
    return ids.length ? ids[0] : null;
  }

  function boot() {
    if (tg) {
      tg.ready();
      tg.expand();
    }
    applyTheme();
    if (!initData) return fatal(word("no_init"));
    status(word("loading"));
    api("me").then(function (me) {
      if (me.error) return fatal(me.message || word("failed"), me.error, me.language);
      state.me = me;
      if (me.language) state.language = me.language;
      state.tableId = chooseTable(me);
      if (state.tableId === null) return fatal(word("no_table"), "no_table");
      return load();
    }).catch(function () { fatal(word("failed"), "network"); });
  }

  function load() {
    return api("table/" + encodeURIComponent(state.tableId)).then(function (snap) {
      if (snap.error) return fatal(snap.message || word("failed"), snap.error, snap.language);
      show(snap, FRESH);
      connect();
    });
  }

  function press(node) {
    if (state.busy || !state.snap) return;
    var snap = state.snap;
    state.busy = true;
    app.classList.add("busy");
    if (tg && tg.HapticFeedback) tg.HapticFeedback.selectionChanged();
    api("table/" + encodeURIComponent(state.tableId) + "/press", {
      version: snap.version, digest: snap.choices ? snap.choices.digest : null, node: node
    }).then(function (data) {
      if (data.error) {
        toast(data.message || word("failed"));
        // The table moved on under the tap: draw it as it stands now.
        return api("table/" + encodeURIComponent(state.tableId)).then(function (fresh) {
          if (!fresh.error) show(fresh, FRESH);
        });
      }
      show(data, FRESH);
    }).catch(function () {
      toast(word("reconnecting"));
    }).then(function () {
      state.busy = false;
      app.classList.remove("busy");
    });
  }

  function pressButton(name) {
    if (state.busy || !state.snap) return;
    state.busy = true;
    app.classList.add("busy");
    api("table/" + encodeURIComponent(state.tableId) + "/button", { version: state.snap.version, name: name })
      .then(function (data) {
        if (data.error) toast(data.message || word("failed"));
        else show(data, FRESH);
      })
      .catch(function () { toast(word("reconnecting")); })
      .then(function () {
        state.busy = false;
        app.classList.remove("busy");
      });
  }

  // ----- live updates ---------------------------------------------------------------------
  function connect() {
    if (state.ws) return;
    var url = new URL("table/" + encodeURIComponent(state.tableId) + "/live", BASE);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    var ws;
    try {
      ws = new WebSocket(url.toString());
    } catch (e) {
      return retry();
    }
    state.ws = ws;
    var first = true;
    ws.onopen = function () {
      ws.send(JSON.stringify({ initData: initData }));
      state.wsAttempt = 0;
      setOffline(false);
    };
    ws.onmessage = function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data.type === "snapshot") {
        state.wsAttempt = 0;
        setOffline(false);
        // The socket's first snapshot is the table as it stands now, whatever the page missed.
        show(data, first ? FRESH : LIVE);
        first = false;
      } else if (data.type === "watchers") {
        state.watchers = data.count;
        drawWatchers();
      } else if (data.type === "ping") {
        state.wsAttempt = 0;
        setOffline(false);
      } else if (data.type === "error" || data.error) {
        // Refused for good (the table is not this player's, or initData expired): no retry.
        state.ws = null;
        ws.onclose = null;
        ws.close();
        fatal(data.message || word("failed"), data.error, data.language);
      }
    };
    ws.onclose = function (event) {
      if (state.ws === ws) state.ws = null;
      // 1001: the server is going away (the bot restarts): try again in a few seconds, not at once.
      if (event && event.code === 1001) state.wsAttempt = Math.max(state.wsAttempt, 3);
      retry();
    };
  }

  function retry() {
    setOffline(true);
    clearTimeout(state.wsTimer);
    // 0.5 s, 1 s, 2 s... up to 10 s between attempts; a page coming back to sight tries at once.
    var delay = Math.min(10000, 500 * Math.pow(2, state.wsAttempt));
    state.wsAttempt += 1;
    state.wsTimer = setTimeout(function () {
      connect();
      // Whatever was missed while away: the socket's first snapshot brings it, and this too.
      api("table/" + encodeURIComponent(state.tableId)).then(function (snap) {
        if (!snap.error) show(snap, FRESH);
      }).catch(function () {});
    }, delay);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && state.tableId !== null && !state.ws && state.snap) {
      state.wsAttempt = 0;
      clearTimeout(state.wsTimer);
      connect();
    }
  });

  // Leaving the page closes its socket at once (a page kept for "back" would hold it open), so
  // the server knows the app is closed and catches the chat up.
  window.addEventListener("pagehide", function () {
    clearTimeout(state.wsTimer);
    if (state.ws) {
      state.ws.onclose = null;
      state.ws.close(1000);
      state.ws = null;
    }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && state.snap && !state.ws) {
      state.wsAttempt = 0;
      connect();
    }
  });

  function setOffline(offline) {
    if (state.offline === offline) return;
    state.offline = offline;
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = !offline;
  }

  // ----- drawing --------------------------------------------------------------------------
  function status(text) {
    app.textContent = "";
    app.appendChild(el("div", "status", text));
  }

  // `language`: the one the server's sentence is in (a refused initData), for the page's own words.
  function fatal(text, code, language) {
    if (language && WORDS[language]) state.language = language;
    document.documentElement.lang = state.language;
    app.textContent = "";
    var box = el("div", "fatal");
    box.id = "fatal";
    if (code) box.dataset.error = code;
    box.appendChild(el("div", "fatal-icon", "⚠️"));
    box.appendChild(el("p", "fatal-text", text));
    var again = el("button", "btn move", word("retry"));
    again.onclick = function () { location.reload(); };
    box.appendChild(again);
    app.appendChild(box);
  }

  var toastTimer = null;
  function toast(text) {
    if (!text) return;
    toastEl.textContent = text;
    toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toastEl.hidden = true; }, 3500);
    if (tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred("error");
  }

  // Snapshots are ordered by the table's revision, which steps with every saved change (a move,
  // the end of a round's pause, a seat taken over...); `version` only counts moves.
  function show(snap, how) {
    var old = state.snap;
    if (old && String(snap.table) !== String(old.table)) return;
    // An older snapshot changes nothing; so does a pushed one of the revision drawn (built before
    // a tap, it would undo the card the tap's answer marked).
    if (old && snap.revision < old.revision) return;
    if (old && how === LIVE && snap.revision === old.revision) return;
    state.snap = snap;
    if (snap.watchers !== undefined) state.watchers = snap.watchers;
    keepResults(snap);
    if (snap.language) state.language = snap.language;
    document.documentElement.lang = state.language;
    draw();
  }

  function draw() {
    var snap = state.snap;

    var scrollY = window.scrollY;
    app.textContent = "";
    app.className = "table game-" + (snap.game || "") + " status-" + (snap.status || "");
    // A watcher's page (docs/MINIAPP.md "Watching"): the table without a hand or a key to press.
    if (snap.watching) app.classList.add("watch");
    if (state.busy) app.classList.add("busy");

    var offline = el("div", "offline", word("reconnecting"));
    offline.id = "offline";
    offline.hidden = !state.offline;
    app.appendChild(offline);

    app.appendChild(drawHeader(snap));
    app.appendChild(drawSeats(snap));
    app.appendChild(drawFelt(snap));
    if (snap.lines && snap.lines.length) app.appendChild(drawLines(snap.lines));
    if (state.results) app.appendChild(drawResults(state.results));

    var dock = el("section", "dock");
    if (snap.prompt) {
      var prompt = el("div", "prompt");
      prompt.id = "prompt";
      snap.prompt.split("\n").forEach(function (line) { prompt.appendChild(el("p", "", line)); });
      dock.appendChild(prompt);
    }
    if (snap.standings) dock.appendChild(drawStandings(snap.standings));
    var keys = keysOf(snap);
    var inHand = {};
    (snap.hand || []).forEach(function (code) { inHand[code] = true; });
    dock.appendChild(drawMoves(keys, inHand));
    dock.appendChild(drawHand(snap, keys, keys.length > 0));
    app.appendChild(dock);
    app.appendChild(drawFooter(snap));
    drawWatchers();
    window.scrollTo(0, scrollY);
    tick();
  }

  function drawHeader(snap) {
    var head = el("header", "top");
    head.appendChild(el("h1", "title", snap.title || ""));
    var tables = (state.me && state.me.tables) || [];
    if (tables.length > 1) {
      var pick = el("select", "tables");
      tables.forEach(function (t) {
        var option = el("option", "", t.title || String(t.id));
        option.value = String(t.id);
        if (String(t.id) === String(state.tableId)) option.selected = true;
        pick.appendChild(option);
      });
      pick.onchange = function () {
        state.tableId = pick.value;
        state.snap = null;
        if (state.ws) { state.ws.onclose = null; state.ws.close(); state.ws = null; }
        status(word("loading"));
        load();
      };
      head.appendChild(pick);
    }
    var watchers = el("div", "watchers");
    watchers.id = "watchers";
    head.appendChild(watchers);
    var timer = el("div", "timer");
    timer.id = "timer";
    head.appendChild(timer);
    return head;
  }

  // A player's page says how many people watch the table (a watcher's does not: it is not told).
  function drawWatchers() {
    var box = document.getElementById("watchers");
    if (!box) return;
    var count = state.snap && !state.snap.watching ? state.watchers : 0;
    box.textContent = count ? "👀 " + count : "";
    box.title = word("watchers");
    box.hidden = !count;
  }

  function drawSeats(snap) {
    var seats = el("section", "seats");
    seats.id = "seats";
    (snap.seats || []).forEach(function (seat) {
      var box = el("div", "seat");
      box.dataset.index = seat.index;
      if (seat.acting) box.classList.add("acting");
      if (seat.you) box.classList.add("you");
      var top = el("div", "seat-name");
      if (seat.acting) top.appendChild(el("span", "turn-dot", "▶"));
      top.appendChild(el("span", "name", seat.name));  // a computer's name carries its 🤖
      box.appendChild(top);
      var info = el("div", "seat-info");
      if (seat.cards !== null && seat.cards !== undefined) {
        var count = el("span", "count");
        count.appendChild(el("span", "mini-back"));
        count.appendChild(document.createTextNode(String(seat.cards)));
        info.appendChild(count);
      }
      if (seat.score !== null && seat.score !== undefined && seat.score !== "") {
        // The score says what it counts ("3 points", Lopti's "🏆1"): no icon of the page's own.
        var score = el("span", "score", seat.score);
        score.title = word("score");
        info.appendChild(score);
      }
      if (seat.acting) {
        var left = el("span", "seat-timer");
        info.appendChild(left);
      }
      box.appendChild(info);
      var up = seat.face_up || [];
      if (up.length || seat.face_down) {
        var table = el("div", "seat-cards");
        up.forEach(function (code) { table.appendChild(Cards.face(code, "xs")); });
        for (var i = 0; i < (seat.face_down || 0); i++) table.appendChild(Cards.back("xs"));
        box.appendChild(table);
      }
      if (seat.note) box.appendChild(el("div", "seat-note", seat.note));
      seats.appendChild(box);
    });
    return seats;
  }

  function seatName(snap, who) {
    var found = (snap.seats || []).filter(function (s) { return String(s.index) === String(who) || s.name === who; })[0];
    return found ? found.name : String(who);
  }

  function drawFelt(snap) {
    var felt = el("section", "felt");
    felt.id = "felt";
    (snap.zones || []).forEach(function (zone) {
      var box = el("div", "zone");
      box.dataset.zone = zone.id;
      if (zone.title) box.appendChild(el("div", "zone-title", zone.title));
      var row = el("div", "zone-cards");
      var count = zone.count;
      var shown = (zone.cards || []).length || (zone.groups || []).length;
      // A count is a face-down stack (a stock), drawn with its number.
      if (count !== null && count !== undefined && !shown) {
        var stack = el("div", "stack" + (count ? "" : " empty"));
        stack.appendChild(count ? Cards.back("md") : el("div", "card md slot-empty"));
        stack.appendChild(el("span", "stack-count", String(count)));
        row.appendChild(stack);
      }
      if (zone.groups && zone.groups.length) {
        // Melds side by side, each a fan of its own.
        zone.groups.forEach(function (group) {
          var meld = el("div", "meld");
          group.forEach(function (code) { meld.appendChild(Cards.face(code, "sm")); });
          row.appendChild(meld);
        });
      } else {
        var cards = zone.cards || [];
        var many = cards.length > 5;
        cards.forEach(function (code, index) {
          var slot = el("div", "slot" + (many ? " overlap" : ""));
          slot.appendChild(Cards.face(code, "md"));
          if (zone.players && zone.players[index] !== undefined && zone.players[index] !== null) {
            slot.appendChild(el("div", "played-by", seatName(snap, zone.players[index])));
          }
          row.appendChild(slot);
        });
      }
      // An empty trick or pile still shows where its cards will land.
      if (!row.childNodes.length && !zone.note) row.appendChild(el("div", "card md slot-empty"));
      if (row.childNodes.length) box.appendChild(row);
      if (zone.note) {
        // A short note is the zone's whole content (the wild rank, the trump suit): drawn large.
        var note = el("div", "zone-note" + (zone.note.length <= 14 && !shown && count == null ? " big" : ""));
        zone.note.split("\n").forEach(function (line) { note.appendChild(el("div", "", line)); });
        box.appendChild(note);
      }
      felt.appendChild(box);
    });
    return felt;
  }

  // The match is over: who won, then everyone's total (the last round's results, above, say who
  // went out and what each scored).
  function drawStandings(lines) {
    var box = el("div", "standings");
    box.id = "standings";
    lines.forEach(function (line) { box.appendChild(el("div", "standing", line)); });
    return box;
  }

  function drawLines(lines) {
    var box = el("section", "lines");
    box.id = "lines";
    lines.slice(-4).forEach(function (line) { box.appendChild(el("div", "line", line)); });
    return box;
  }

  // The round's results come with the move that ends the round and go with the next one: the
  // page keeps the latest it got. A new edition (a round just ended) opens the block; one the
  // player closed stays closed, even after a reload (sessionStorage, when the WebView has it).
  function keepResults(snap) {
    var kept = state.results;
    if (kept && String(kept.table) !== String(snap.table)) kept = state.results = null;
    var got = snap.results;
    if (!got || (kept && kept.edition === got.edition)) return;
    state.results = { table: snap.table, edition: got.edition, lines: got.lines || [] };
    state.resultsOpen = !closedBefore(state.results);
  }

  function resultsKey(results) { return "karata.results." + results.table + "." + results.edition; }

  function closedBefore(results) {
    try { return window.sessionStorage.getItem(resultsKey(results)) === "closed"; } catch (e) { return false; }
  }

  function drawResults(results) {
    var box = el("details", "results");
    box.id = "results";
    box.dataset.edition = results.edition;
    box.appendChild(el("summary", "results-title", word("results")));
    results.lines.forEach(function (line) { box.appendChild(el("div", "result-line", line)); });
    box.open = state.resultsOpen;
    box.addEventListener("toggle", function () {
      if (state.results !== results) return;
      state.resultsOpen = box.open;
      try {
        if (box.open) window.sessionStorage.removeItem(resultsKey(results));
        else window.sessionStorage.setItem(resultsKey(results), "closed");
      } catch (e) { /* no storage: remembered while the page is open */ }
    });
    return box;
  }

  function isCall(key) {
    // Kadi's call is the one move a player races to make: a big button of its own.
    return key.kind === "call" && !key.opens;
  }

  // What the player may tap at the open node, as the chat keyboard offers it (docs/MINIAPP.md:
  // the snapshot's `choices`); a tap on a key that opens answers with the next node's keys.
  function keysOf(snap) {
    return (snap.choices && snap.choices.keys) || [];
  }

  function drawMoves(keys, inHand) {
    var moves = el("div", "moves");
    moves.id = "moves";
    var calls = [], alone = [], other = [], cards = [], confirm = null, back = null;
    keys.forEach(function (key) {
      if (key.kind === "confirm") confirm = key;
      else if (key.kind === "back") back = key;
      else if (key.kind === "card" && key.card) { if (!inHand[key.card]) cards.push(key); }
      else if (isCall(key)) calls.push(key);
      else if (key.kind === "alone") alone.push(key);
      else other.push(key);
    });
    calls.forEach(function (key) { moves.appendChild(button(key, "btn call", key.label)); });
    tableButtons().forEach(function (b) { moves.appendChild(b); });
    if (cards.length) {
      // Cards to tap that are not in the hand (Lopti's face-up cards, Euchre's dummy).
      var row = el("div", "card-choices");
      cards.forEach(function (key) {
        var slot = el("button", "hand-slot legal" + (key.marked ? " marked" : ""));
        slot.appendChild(Cards.face(key.card, "md"));
        if (key.marked) slot.appendChild(el("span", "check", "✓"));
        slot.dataset.node = key.node;
        slot.onclick = function () { press(key.node); };
        row.appendChild(slot);
      });
      moves.appendChild(row);
    }
    if (other.length) {
      var wrap = el("div", "move-row");
      other.forEach(function (key) { wrap.appendChild(button(key, "btn move", key.label)); });
      moves.appendChild(wrap);
    }
    alone.forEach(function (key) { moves.appendChild(button(key, "btn alone", key.label)); });
    if (confirm || back) {
      var bottom = el("div", "move-row bottom");
      if (back) bottom.appendChild(button(back, "btn back", "↩ " + word("back")));
      if (confirm) bottom.appendChild(button(confirm, "btn confirm", "✔ " + word("confirm")));
      moves.appendChild(bottom);
    }
    return moves;
  }

  function button(key, cls, text) {
    var b = el("button", cls, text);
    b.dataset.node = key.node;
    b.onclick = function () { press(key.node); };
    return b;
  }

  // Buttons any player of the table may press (Kadi's "Kadi Moja!" and accusations); one with a
  // warning asks for a second tap.
  var armed = { name: null, until: 0 };
  function tableButtons() {
    return (state.snap.buttons || []).map(function (spec) {
      var call = spec.name === "call";
      var b = el("button", call ? "btn call" : "btn move table-button", spec.label);
      b.dataset.button = spec.name;
      b.onclick = function () {
        if (spec.warning && !(armed.name === spec.name && Date.now() < armed.until)) {
          armed = { name: spec.name, until: Date.now() + 6000 };
          toast(spec.warning);
          return;
        }
        armed = { name: null, until: 0 };
        pressButton(spec.name);
      };
      return b;
    });
  }

  function drawHand(snap, keys, choosing) {
    var hand = el("section", "hand");
    hand.id = "hand";
    var codes = snap.hand || [];
    if (!codes.length) return hand;
    // The keys of each card code, in keyboard order: a code may stand twice (two jokers), and
    // each copy takes the next key (the marked one first, then the one that adds it).
    var byCode = {};
    keys.forEach(function (key) {
      if (key.kind === "card" && key.card) (byCode[key.card] = byCode[key.card] || []).push(key);
    });
    // As large as the width allows, rows of at most seven, balanced (8 cards: two rows of 4).
    var avail = Math.min(window.innerWidth || 360, 520) - 34;
    var rows = Math.ceil(codes.length / 7);
    var perRow = Math.ceil(codes.length / rows);
    var width = Math.min(62, Math.floor((avail - 4 * (perRow - 1)) / perRow));
    hand.style.setProperty("--cw", width + "px");
    var used = {};
    codes.forEach(function (code) {
      var slot = el("button", "hand-slot");
      slot.appendChild(Cards.face(code, "lg"));
      var taken = used[code] || 0;
      var key = byCode[code] && byCode[code][taken];
      used[code] = taken + 1;
      if (key) {
        slot.classList.add(key.marked ? "marked" : "legal");
        if (key.marked) slot.appendChild(el("span", "check", "✓"));
        slot.dataset.node = key.node;
        slot.onclick = function () { press(key.node); };
      } else {
        slot.disabled = true;
        if (choosing) slot.classList.add("dim");
      }
      hand.appendChild(slot);
    });
    return hand;
  }

  function drawFooter(snap) {
    var foot = el("footer", "foot");
    var link = el("button", "link", "💬 " + word("open_chat"));
    link.id = "to-chat";
    var url = snap.chat_url || (state.me && state.me.chat_url);
    link.onclick = function () {
      // Inside Telegram the chat opens over the app; a browser without Telegram just goes there.
      if (url && tg && tg.openTelegramLink) tg.openTelegramLink(url);
      else if (url) window.location.href = url;
      else if (tg) tg.close();
    };
    foot.appendChild(link);
    return foot;
  }

  // ----- the turn timer -------------------------------------------------------------------
  function tick() {
    var snap = state.snap;
    if (!snap) return;
    var left = snap.deadline ? Math.max(0, Math.ceil(snap.deadline - Date.now() / 1000)) : null;
    var text = left === null ? "" : "⏱ " + Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
    var timer = document.getElementById("timer");
    if (timer) {
      timer.textContent = text;
      timer.hidden = left === null;
      timer.classList.toggle("low", left !== null && left <= 10);
    }
    var seatTimers = document.querySelectorAll(".seat-timer");
    for (var i = 0; i < seatTimers.length; i++) seatTimers[i].textContent = text;
  }
  setInterval(tick, 250);

  // ----- theme ----------------------------------------------------------------------------
  function applyTheme() {
    // telegram-web-app.js sets the --tg-theme-* variables; the page follows the scheme for the
    // colours Telegram does not give (the felt, the cards).
    var scheme = (tg && tg.colorScheme) || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
    document.documentElement.dataset.scheme = scheme;
  }
  if (tg && tg.onEvent) tg.onEvent("themeChanged", applyTheme);

  // For the browser tests: what the page holds, and a way to cut its live connection.
  window.KarataApp = {
    state: state,
    dropLive: function () { if (state.ws) state.ws.close(4000); }
  };

  boot();
})();
