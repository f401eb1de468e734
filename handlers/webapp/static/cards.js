/* Cards drawn with SVG: no image files and no fonts needed for the suits, so a card looks the
   same on every phone. A card code is the rank then the suit ("10H", "QS"); "X" is a joker. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  // Suits in a 100x100 box.
  var SUIT_PATHS = {
    H: "M50 90C22 68 5 51 5 31 5 17 16 7 29 7c9 0 16 5 21 13 5-8 12-13 21-13 13 0 24 10 24 24 0 20-17 37-45 59z",
    D: "M50 4 86 50 50 96 14 50z",
    S: "M50 5C41 22 7 39 7 61c0 14 10 23 22 23 8 0 14-3 18-9-1 9-5 15-13 21h32c-8-6-12-12-13-21 4 6 10 9 18 9 12 0 22-9 22-23C93 39 59 22 50 5z",
    C: "M50 6a19 19 0 0 0-16 29 19 19 0 1 0 13 30c-1 13-5 21-13 31h32c-8-10-12-18-13-31a19 19 0 1 0 13-30A19 19 0 0 0 50 6z"
  };
  // A five-pointed star for the joker.
  var STAR = "M50 4l13 30 33 3-25 22 8 32-29-17-29 17 8-32L4 37l33-3z";
  var RED = { H: true, D: true };

  function svg(path, cls) {
    var el = document.createElementNS(NS, "svg");
    el.setAttribute("viewBox", "0 0 100 100");
    el.setAttribute("aria-hidden", "true");
    el.setAttribute("class", cls);
    var p = document.createElementNS(NS, "path");
    p.setAttribute("d", path);
    el.appendChild(p);
    return el;
  }

  function parse(code) {
    if (code === "X") return { joker: true };
    return { rank: code.slice(0, -1), suit: code.slice(-1) };
  }

  // What a screen reader says: "10♥", "Q♠", "🃏".
  var SUIT_TEXT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  function text(code) {
    var c = parse(code);
    return c.joker ? "\uD83C\uDCCF" : c.rank + SUIT_TEXT[c.suit];
  }

  // A face-up card: rank and small suit in the corner, a large suit in the middle.
  function face(code, size) {
    var c = parse(code);
    var el = document.createElement("div");
    el.className = "card " + (size || "") + (c.joker ? " joker" : RED[c.suit] ? " red" : " black");
    el.dataset.code = code;
    el.setAttribute("aria-label", text(code));
    if (c.joker) {
      el.appendChild(svg(STAR, "pip"));
      var w = document.createElement("span");
      w.className = "joker-word";
      w.textContent = "JOKER";
      el.appendChild(w);
      return el;
    }
    var rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = c.rank;
    el.appendChild(rank);
    el.appendChild(svg(SUIT_PATHS[c.suit], "corner"));
    el.appendChild(svg(SUIT_PATHS[c.suit], "pip"));
    return el;
  }

  // A card face down.
  function back(size) {
    var el = document.createElement("div");
    el.className = "card back " + (size || "");
    return el;
  }

  window.Cards = { face: face, back: back, text: text, parse: parse };
})();
