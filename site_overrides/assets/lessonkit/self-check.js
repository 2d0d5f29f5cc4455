/* lessonkit: answer the self-checks on a lesson page and check them in place, graded
   exactly as `lessonkit quiz` grades (src/lessonkit/grader.py and responses.py; the
   table in tests/grading_cases.json holds both to it). Answers are kept in this
   browser's localStorage only: no network, no cookies. Without this script every
   question still has its answer in a <details> block that opens on click. */
(function () {
  "use strict";

  var SIGNS = { usd: "$", eur: "€", gbp: "£", jpy: "¥", cny: "¥", inr: "₹" };
  var NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/;
  var SPACES = /[\s\x1c-\x1f\x85]+/;
  var LINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
  var BATCH = 4; // questions shown at a time

  // --- grading: the same rules as grader.py -------------------------------

  // Python's casefold(), for the letters where lower case is not enough.
  function fold(text) {
    return text.toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ");
  }

  function clean(text) {
    text = text.normalize("NFKC").replace(/[\u2212\u2013]/g, "-").replace(/[\u00a0\u202f]/g, " ");
    return fold(text.trim());
  }

  function normalise(text, caseSensitive) {
    text = text.normalize("NFKC");
    return (caseSensitive ? text : fold(text)).split(SPACES).filter(Boolean).join(" ");
  }

  function fail(message) {
    return { error: message };
  }

  function stripAll(text, sign) {
    while (text.startsWith(sign)) text = text.slice(sign.length);
    while (text.endsWith(sign)) text = text.slice(0, -sign.length);
    return text;
  }

  function decimal(text, unit) {
    var typed = clean(text);
    var shown = typed;
    if (unit) {
      var folded = clean(unit);
      if (typed.endsWith(folded) && typed !== folded) {
        typed = typed.slice(0, -folded.length).trimEnd();
      }
      var sign = SIGNS[folded];
      if (sign && stripAll(typed, sign) && typed !== stripAll(typed, sign)) {
        if (typed.startsWith(sign)) typed = typed.slice(sign.length);
        if (typed.endsWith(sign)) typed = typed.slice(0, -sign.length);
        typed = typed.trim();
      }
    }
    var number = typed.replace(/ /g, "").replace(/_/g, "");
    if (number.indexOf(",") >= 0) {
      if (number.indexOf(".") >= 0 || number.split(",").length > 2) {
        return fail("“" + shown + "” mixes separators. Use one decimal point or comma.");
      }
      number = number.replace(",", ".");
    }
    var value = NUMBER.test(number) ? parseFloat(number) : NaN;
    if (!isFinite(value)) {
      return fail("“" + shown + "” is not a number. Type digits such as 2.5 or 2,5.");
    }
    return { value: value };
  }

  // Python's math.ulp: the gap to the next larger double.
  function ulp(x) {
    x = Math.abs(x);
    if (x === 0) return Number.MIN_VALUE;
    var e = Math.floor(Math.log2(x));
    if (Math.pow(2, e) > x) e -= 1;
    else if (Math.pow(2, e + 1) <= x) e += 1;
    return Math.max(Math.pow(2, e - 52), Number.MIN_VALUE);
  }

  // A pattern written for Python's `re`, matched against the whole text.
  function fullmatch(pattern, text, caseSensitive) {
    var source = "^(?:" + pattern.replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, "\\k<$1>")
      .replace(/\\Z/g, "$").replace(/\\A/g, "^") + ")$";
    var flags = caseSensitive ? "" : "i";
    try {
      return new RegExp(source, flags + "u").test(text);
    } catch (error) {
      try {
        return new RegExp(source, flags).test(text);
      } catch (again) {
        return false;
      }
    }
  }

  function lines(text, caseSensitive) {
    var found = text.split(LINES).map(function (line) {
      return normalise(line, caseSensitive);
    });
    while (found.length && !found[0]) found.shift();
    while (found.length && !found[found.length - 1]) found.pop();
    return found.join("\n");
  }

  function textRight(key, text) {
    var cs = !!key.case_sensitive;
    var form = key.multiline ? lines : normalise;
    var typed = form(text, cs);
    var spaced = form(text, true);
    return key.accept.some(function (answer) {
      return form(answer, cs) === typed;
    }) || key.patterns.some(function (pattern) {
      return fullmatch(pattern, spaced, cs);
    });
  }

  // The share of the points a response earns, or {error} when it cannot be graded
  // (the terminal refuses such input and asks again).
  function share(key, response) {
    var type = key.type;
    if (type === "numeric" || type === "text") {
      if (typeof response !== "string" || !clean(response)) return fail("Nothing was typed.");
      if (type === "text") return textRight(key, response) ? 1 : 0;
      var number = decimal(response, key.unit);
      if (number.error) return number;
      var allowed = 0;
      if (key.tolerance != null) allowed = Math.max(allowed, key.tolerance);
      if (key.relative_tolerance != null) {
        allowed = Math.max(allowed, key.relative_tolerance * Math.abs(key.answer));
      }
      var slack = 4 * ulp(Math.max(Math.abs(key.answer), Math.abs(number.value)));
      return Math.abs(number.value - key.answer) <= allowed + slack ? 1 : 0;
    }
    if (response === null || response === undefined) return fail("Choose an answer first.");
    if (type === "true_false") return response === key.answer ? 1 : 0;
    if (type === "single") return key.correct.indexOf(response) >= 0 ? 1 : 0;
    if (type === "multiple") {
      var chosen = response.filter(function (v, i) { return response.indexOf(v) === i; });
      if (!chosen.length) return fail("Choose at least one option.");
      var right = chosen.filter(function (i) { return key.correct.indexOf(i) >= 0; }).length;
      return Math.max(0, right - (chosen.length - right)) / key.correct.length;
    }
    if (type === "order") {
      var position = {};
      response.forEach(function (item, at) { position[item] = at; });
      var kept = 0;
      for (var i = 0; i + 1 < key.count; i += 1) {
        if (position[i + 1] === position[i] + 1) kept += 1;
      }
      return kept / (key.count - 1);
    }
    if (response.indexOf(null) >= 0) return fail("Match every item first.");
    // As in the terminal: each answer on the right goes to one item at most.
    var twice = response.filter(function (v, i) { return response.indexOf(v) !== i; });
    if (twice.length) return fail("An answer is chosen twice. Give each answer to one item at most.");
    return response.filter(function (choice, i) { return choice === i; }).length / key.count;
  }

  function grade(key, response) {
    var found = share(key, response);
    if (found.error) return found;
    found = Math.min(1, Math.max(0, found));
    if (key.scoring === "all_or_nothing") found = found === 1 ? 1 : 0;
    return { score: key.points * found, max: key.points, correct: found === 1 };
  }

  // --- the page ------------------------------------------------------------

  function num(value) {
    return value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  }

  function points(score, max) {
    return num(score) + " of " + num(max) + " point" + (max === 1 ? "" : "s");
  }

  // As the terminal's passmark.percent: whole percents while they agree with the pass mark,
  // else one decimal (69.6%), else the digits cut (69.99%), never rounded across the mark.
  function percent(score, max, mark) {
    var share = max > 0 ? score / max : 0;
    if (!(mark >= 0)) return (share * 100).toFixed(0) + "%";
    var passed = score + 1e-9 >= mark * max;
    for (var places = 0; places <= 2; places++) {
      var shown = (share * 100).toFixed(places);
      if ((parseFloat(shown) + 1e-7 >= mark * 100) === passed) return shown + "%";
    }
    var cut = (passed ? Math.ceil : Math.floor)(share * 10000 + (passed ? -1e-9 : 1e-9));
    return (cut / 100).toFixed(2) + "%";
  }

  // One entry per page, read afresh: instant navigation changes the page in place.
  function store() {
    return "lessonkit:" + location.pathname;
  }

  function load() {
    try {
      return JSON.parse(localStorage.getItem(store()) || "{}") || {};
    } catch (error) {
      return {}; // storage switched off or damaged: the page still works, unsaved
    }
  }

  function save(id, response) {
    var saved = load();
    if (response === undefined) delete saved[id];
    else saved[id] = response;
    try {
      localStorage.setItem(store(), JSON.stringify(saved));
    } catch (error) { /* nothing to do: progress is a convenience */ }
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text) made.textContent = text;
    return made;
  }

  function read(question, key) {
    var type = key.type;
    var inputs = Array.prototype.slice.call(question.querySelectorAll(".lk-options input"));
    if (type === "multiple") {
      return inputs.filter(function (i) { return i.checked; }).map(function (i) { return +i.value; });
    }
    if (type === "single" || type === "true_false") {
      var chosen = inputs.filter(function (i) { return i.checked; })[0];
      if (!chosen) return null;
      return type === "single" ? +chosen.value : chosen.value === "1";
    }
    if (type === "numeric" || type === "text") return question.querySelector(".lk-field [id]").value;
    if (type === "order") {
      return Array.prototype.map.call(question.querySelectorAll(".lk-order > li"), function (li) {
        return +li.getAttribute("data-item");
      });
    }
    return Array.prototype.map.call(question.querySelectorAll(".lk-pairs select"), function (s) {
      return s.value === "" ? null : +s.value;
    });
  }

  function write(question, key, response) {
    var type = key.type;
    question.querySelectorAll(".lk-options input").forEach(function (input) {
      var value = type === "true_false" ? input.value === "1" : +input.value;
      input.checked = response !== null && (Array.isArray(response)
        ? response.indexOf(value) >= 0 : response === value);
    });
    var field = question.querySelector(".lk-field [id]");
    if (field) field.value = response || "";
    var list = question.querySelector(".lk-order");
    if (list && response) {
      response.forEach(function (item) {
        var li = list.querySelector('[data-item="' + item + '"]');
        if (li) list.appendChild(li);
      });
    }
    question.querySelectorAll(".lk-pairs select").forEach(function (select, n) {
      select.value = response && response[n] !== null ? String(response[n]) : "";
    });
  }

  function unmark(question) {
    question.querySelectorAll(".lk-mark").forEach(function (mark) { mark.remove(); });
    question.querySelectorAll(".lk-right, .lk-wrong").forEach(function (marked) {
      marked.classList.remove("lk-right", "lk-wrong");
    });
    question.classList.remove("lk-done", "lk-missed");
  }

  function mark(target, right, feedback) {
    target.classList.add(right ? "lk-right" : "lk-wrong");
    var note = element("span", "lk-mark", right ? "✓ Right" : "✗ Wrong");
    if (feedback) {
      var said = element("span", "lk-said");
      said.innerHTML = feedback.innerHTML.replace(/^[a-z]\) /, "");
      note.appendChild(document.createTextNode(": "));
      note.appendChild(said);
    }
    target.appendChild(note);
  }

  function show(question, key, result) {
    unmark(question);
    var type = key.type;
    question.querySelectorAll(".lk-options input:checked").forEach(function (input) {
      var right = type === "true_false" ? (input.value === "1") === key.answer
        : key.correct.indexOf(+input.value) >= 0;
      var about = question.querySelector('.lk-about [data-option="' + input.value + '"]');
      mark(input.closest(".lk-option"), right, type === "true_false" ? null : about);
    });
    question.querySelectorAll(".lk-pairs select").forEach(function (select, n) {
      mark(select.parentNode, +select.value === n, null);
    });
    var verdict = result.correct ? "✓ Correct" : result.score > 0 ? "◐ Partly correct" : "✗ Incorrect";
    question.querySelector(".lk-result").textContent =
      verdict + ": " + points(result.score, result.max) + ".";
    question.classList.add("lk-done");
    question.classList.toggle("lk-missed", !result.correct);
    question.lkScore = result;
    question.querySelector("details.lk-answer").open = true;
  }

  function check(question, key, quiet) {
    var response = read(question, key);
    var result = grade(key, response);
    if (result.error) {
      // A kept answer that no longer fits (the bank changed) is dropped without a word.
      if (quiet) save(question.id, undefined);
      else question.querySelector(".lk-result").textContent = result.error;
      return;
    }
    show(question, key, result);
    if (!quiet) save(question.id, response);
    tally(question.closest(".lk-self-check"));
  }

  function reset(question, key) {
    unmark(question);
    write(question, key, null);
    question.lkScore = null;
    question.querySelector(".lk-result").textContent = "";
    question.querySelector("details.lk-answer").open = false;
    save(question.id, undefined);
  }

  function tally(block) {
    var questions = block.querySelectorAll(".lk-question");
    var done = 0;
    var score = 0;
    var max = 0;
    var missed = 0;
    questions.forEach(function (question) {
      var found = question.lkScore;
      max += JSON.parse(question.getAttribute("data-key")).points;
      if (found) {
        done += 1;
        score += found.score;
        if (!found.correct) missed += 1;
      }
    });
    var bar = block.querySelector(".lk-tally");
    bar.querySelector("p").textContent = done
      ? "Your score: " + points(score, max) +
        " (" + percent(score, max, parseFloat(block.getAttribute("data-pass-mark"))) + "), " +
        done + " of " + questions.length + " answered."
      : "";
    bar.querySelector(".lk-retry").hidden = !missed;
    bar.querySelector(".lk-clear").hidden = !done;
  }

  function button(text, className, action) {
    var made = element("button", className, text);
    made.type = "button";
    made.addEventListener("click", action);
    return made;
  }

  function reorder(question, li, step) {
    var list = li.parentNode;
    var items = Array.prototype.slice.call(list.children);
    var at = items.indexOf(li) + step;
    if (at < 0 || at >= items.length) return;
    list.insertBefore(li, step < 0 ? items[at] : items[at].nextSibling);
    var moved = li.querySelector(step < 0 ? ".lk-up" : ".lk-down");
    (at === 0 || at === items.length - 1 ? li.querySelector(step < 0 ? ".lk-down" : ".lk-up")
      : moved).focus();
    question.querySelector(".lk-result").textContent =
      "“" + li.firstChild.textContent + "” is now number " + (at + 1) + " of " + items.length + ".";
  }

  function mountQuestion(question, saved) {
    var key = JSON.parse(question.getAttribute("data-key"));
    question.querySelectorAll(".lk-order > li").forEach(function (li) {
      var name = li.firstChild.textContent;
      var up = button("↑", "lk-up", function () { reorder(question, li, -1); });
      var down = button("↓", "lk-down", function () { reorder(question, li, 1); });
      up.setAttribute("aria-label", "Move “" + name + "” up");
      down.setAttribute("aria-label", "Move “" + name + "” down");
      li.appendChild(up);
      li.appendChild(down);
    });
    var bar = element("div", "lk-check");
    bar.appendChild(button("Check", "", function () { check(question, key, false); }));
    var result = element("p", "lk-result");
    result.setAttribute("role", "status");
    bar.appendChild(result);
    question.insertBefore(bar, question.querySelector("details.lk-answer"));
    question.querySelectorAll(".lk-field input").forEach(function (input) {
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") check(question, key, false);
      });
    });
    if (saved[question.id] !== undefined) {
      write(question, key, saved[question.id]);
      check(question, key, true);
    }
    return key;
  }

  function mountBlock(block, saved) {
    var questions = Array.prototype.slice.call(block.querySelectorAll(".lk-question"));
    var keys = {};
    var bar = element("div", "lk-tally");
    bar.appendChild(element("p"));
    bar.setAttribute("role", "status");
    var retry = button("Retry the ones I missed", "lk-retry", function () {
      var first = null;
      questions.forEach(function (question) {
        if (question.lkScore && !question.lkScore.correct) {
          reset(question, keys[question.id]);
          first = first || question;
        }
      });
      tally(block);
      if (first) first.querySelector("input, select, button").focus();
    });
    var clear = button("Clear my answers", "lk-clear", function () {
      questions.forEach(function (question) { reset(question, keys[question.id]); });
      tally(block);
      questions[0].querySelector("input, select, button").focus();
    });
    bar.appendChild(retry);
    bar.appendChild(clear);
    block.appendChild(bar);
    questions.forEach(function (question) { keys[question.id] = mountQuestion(question, saved); });
    // A few at a time: the rest wait behind a button, unless the reader answered them.
    var shown = Math.max(BATCH, questions.reduce(function (last, question, at) {
      return question.lkScore ? at + 1 : last;
    }, 0));
    if (questions.length > shown) {
      var more = button("", "lk-more", function () {
        var next = questions.filter(function (q) { return q.hidden; }).slice(0, BATCH);
        next.forEach(function (q) { q.hidden = false; });
        next[0].querySelector(".lk-prompt").setAttribute("tabindex", "-1");
        next[0].querySelector(".lk-prompt").focus();
        label();
      });
      var label = function () {
        var left = questions.filter(function (q) { return q.hidden; }).length;
        var next = Math.min(BATCH, left);
        more.textContent = "Next " + (next === 1 ? "question" : next + " questions") +
          (left > next ? " (" + left + " to go)" : "");
        more.hidden = !left;
      };
      questions.slice(shown).forEach(function (q) { q.hidden = true; });
      block.insertBefore(more, bar);
      label();
    }
    tally(block);
  }

  // A table wider than the screen scrolls sideways: say so, and let the keyboard scroll it.
  function markScrolling() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      var hint = wrap.previousElementSibling;
      if (!hint || !hint.classList.contains("lk-scroll-hint")) {
        hint = element("p", "lk-scroll-hint", "Scroll the table sideways to see all of it →");
        hint.setAttribute("aria-hidden", "true");
        wrap.parentNode.insertBefore(hint, wrap);
      }
      hint.hidden = !scrolls;
      wrap.classList.toggle("lk-scrolls", scrolls);
      if (scrolls) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", "Table, scrolls sideways");
      } else {
        ["tabindex", "role", "aria-label"].forEach(function (name) { wrap.removeAttribute(name); });
      }
    });
  }

  function mount() {
    var saved = load();
    document.querySelectorAll(".lk-self-check").forEach(function (block) {
      if (!block.querySelector(".lk-tally")) mountBlock(block, saved);
    });
    // After the theme has wrapped the tables and the page is laid out.
    setTimeout(markScrolling, 0);
  }

  window.lessonkit = { grade: grade };
  window.addEventListener("resize", markScrolling);
  window.addEventListener("load", markScrolling);
  // With navigation.instant the theme swaps pages without reloading them, and
  // announces each new page through `document$`.
  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(mount);
  } else {
    document.addEventListener("DOMContentLoaded", mount);
  }
})();
