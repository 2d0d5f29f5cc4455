/* lessonkit: the `cloze` question on the page: several blanks in one prompt, each a
   number or a short text, graded blank by blank exactly as `lessonkit quiz` grades
   them (src/lessonkit/questiontypes/cloze.py; tests/grading_cases.json holds both to
   it). Each blank is graded by the rules of its own kind, numeric or text (typed.js,
   which the page loads before this), so nothing of those rules is repeated here.
   self-check.js fetches this file on pages with a cloze only. */
(function () {
  "use strict";

  var lessonkit = window.lessonkit;

  function fields(question) {
    var found = question.querySelectorAll("input[data-blank]");
    return Array.prototype.slice.call(found).sort(function (a, b) {
      return +a.getAttribute("data-blank") - +b.getAttribute("data-blank");
    });
  }

  function marker(n) {
    return "[[" + (n + 1) + "]]";
  }

  // Each blank's field moves into the prompt where its marker stands, named for screen
  // readers by its number; without this script the fields wait below the prompt.
  function mount(question) {
    var prompt = question.querySelector(".lk-prompt");
    var moved = 0;
    fields(question).forEach(function (input, n) {
      var walker = document.createTreeWalker(prompt, NodeFilter.SHOW_TEXT);
      for (var node = walker.nextNode(); node; node = walker.nextNode()) {
        var at = node.nodeValue.indexOf(marker(n));
        if (at < 0) continue;
        var rest = node.splitText(at);
        rest.nodeValue = rest.nodeValue.slice(marker(n).length);
        var entry = input.closest(".lk-entry");
        var unit = entry.querySelector(".lk-unit");
        // In the sentence, the words around the blank say its unit.
        if (unit) unit.hidden = true;
        input.setAttribute("aria-label", "Blank " + (n + 1));
        node.parentNode.insertBefore(entry, rest);
        moved += 1;
        break;
      }
    });
    var list = question.querySelector(".lk-blanks");
    if (moved === fields(question).length) list.hidden = true;
  }

  function read(question) {
    return fields(question).map(function (input) { return input.value; });
  }

  function write(question, key, response) {
    fields(question).forEach(function (input, n) {
      input.value = response && typeof response[n] === "string" ? response[n] : "";
    });
  }

  function blank(key, response, n, said) {
    var typed = lessonkit.typed;
    if (!typed) return { error: "Typed answers cannot be checked here: open the answer to compare." };
    if (!/\S/.test(response[n] || "")) return 0; // left empty: no credit for this blank
    return typed(key.blanks[n], response[n], said);
  }

  // The share of the points: blanks right over blanks, or {error} for what the terminal
  // refuses (nothing typed at all, a blank that holds no number).
  function share(key, response, said) {
    if (!Array.isArray(response) || response.length !== key.blanks.length) {
      return { error: "Fill in the blanks first." };
    }
    if (!response.some(function (text) { return /\S/.test(text || ""); })) {
      return { error: "Nothing was typed in any blank." };
    }
    var right = 0;
    for (var n = 0; n < key.blanks.length; n += 1) {
      var own = [];
      var found = blank(key, response, n, own);
      var prefix = key.blanks.length > 1 ? marker(n) + ": " : "";
      if (found.error) return { error: prefix + found.error };
      right += found;
      own.forEach(function (line) { said.push(prefix + line); });
    }
    return right / key.blanks.length;
  }

  function mark(question, key, seen, marked) {
    var response = read(question);
    fields(question).forEach(function (input, n) {
      // A blank left empty is marked once the reader has seen the answer.
      if (!/\S/.test(input.value) && !seen) return;
      var right = blank(key, response, n, []) === 1;
      marked(input.closest(".lk-entry"), right, null, right ? "✓" : "✗");
    });
  }

  lessonkit.register("cloze", { mount: mount, read: read, write: write, share: share, mark: mark });
})();
