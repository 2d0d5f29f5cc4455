/* lessonkit: the `cloze` question type on the page (src/lessonkit/questiontypes/cloze.py):
   several blanks in one prompt, each graded by the rules of its own kind, `numeric` or
   `text`, through that type's own widget script (its key lists them under `uses`, so the
   page loads them too); nothing of those rules is repeated here. Partial credit: the share
   of blanks right, as in the terminal (tests/grading_cases.json holds both to it).
   Registered with self-check.js, which loads this file on pages with a cloze only. */
(function (lk) {
  "use strict";

  function fields(question) {
    var found = question.querySelectorAll("input[data-blank]");
    return Array.prototype.slice.call(found).sort(function (a, b) {
      return +a.getAttribute("data-blank") - +b.getAttribute("data-blank");
    });
  }

  function marker(n) {
    return "[[" + (n + 1) + "]]";
  }

  function empty(text) {
    return !/\S/.test(text || "");
  }

  // Each blank's field moves into the prompt where its marker stands, named for screen
  // readers by its number (the sentence around it says its unit); without this script
  // the fields wait in a list below the prompt, labelled with the markers.
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
        if (unit) unit.hidden = true;
        input.setAttribute("aria-label", "Blank " + (n + 1));
        node.parentNode.insertBefore(entry, rest);
        moved += 1;
        break;
      }
    });
    if (moved === fields(question).length) question.querySelector(".lk-blanks").hidden = true;
  }

  function read(question) {
    return fields(question).map(function (input) { return input.value; });
  }

  function write(question, key, response) {
    fields(question).forEach(function (input, n) {
      // Kept as typed (strings); a number, as lessonkit's history writes a numeric key,
      // is shown as its digits.
      var part = response ? response[n] : null;
      input.value = typeof part === "string" || typeof part === "number" ? String(part) : "";
    });
  }

  // One blank graded by its own type: {score, said} or {error}; left empty, no credit.
  function blank(key, response, n) {
    if (empty(response[n])) return { score: 0, said: [] };
    return lk.grade(key.blanks[n], response[n]);
  }

  // The share of the points: blanks right over blanks, or {error} for what the terminal
  // refuses (nothing typed in any blank, a blank that holds no number).
  function share(key, response, said) {
    if (!Array.isArray(response) || response.length !== key.blanks.length) {
      return lk.fail("Fill in the blanks first.");
    }
    if (response.every(empty)) return lk.fail("Nothing was typed in any blank.");
    var right = 0;
    for (var n = 0; n < key.blanks.length; n += 1) {
      var found = blank(key, response, n);
      var prefix = key.blanks.length > 1 ? marker(n) + ": " : "";
      if (found.error) return lk.fail(prefix + found.error);
      right += found.score;
      found.said.forEach(function (line) { said.push(prefix + line); });
    }
    return right / key.blanks.length;
  }

  // Each answered blank marked ✓ or ✗ in the sentence; an empty one once the reader has
  // seen the answer.
  function mark(question, key, seen) {
    var response = read(question);
    fields(question).forEach(function (input, n) {
      if (empty(input.value) && !seen) return;
      var right = blank(key, response, n).score === 1;
      lk.mark(input.closest(".lk-entry"), right, null, right ? "✓" : "✗");
    });
  }

  lk.register("cloze", { mount: mount, read: read, write: write, share: share, mark: mark });
})(window.lessonkit);
