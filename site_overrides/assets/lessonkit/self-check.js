/* lessonkit: answer the self-checks on a lesson page and check them in place, graded
   exactly as `lessonkit quiz` grades (src/lessonkit/grading/grader.py and responses.py;
   the table in tests/grading_cases.json holds both to it). Typed answers are graded by
   typed.js, which this script loads on pages that ask for one. Answers are kept in this
   browser's localStorage only: no network, no cookies. Without this script every
   question still has its answer in a <details> block that opens on click. */
(function () {
  "use strict";

  var BATCH = 4; // questions shown at a time
  var NOT_TYPED = "Typed answers cannot be checked here: open the answer to compare.";

  // --- grading: the same rules as grader.py (typed answers: typed.js) -------

  function fail(message) {
    return { error: message };
  }

  // The share of the points a response earns, or {error} when it cannot be graded
  // (the terminal refuses such input and asks again).
  function share(key, response, said) {
    var type = key.type;
    var own = types[type];
    if (own) return own.share(key, response, said);
    // Typed answers are graded by typed.js, loaded only on pages that ask for them.
    if (type === "numeric" || type === "text") {
      var typed = window.lessonkit.typed;
      return typed ? typed(key, response, said) : fail(NOT_TYPED);
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

  // {score, max, correct, said}: `said` is how a number was read and any hint about it.
  function grade(key, response) {
    var said = [];
    var found = share(key, response, said);
    if (found.error) return found;
    found = Math.min(1, Math.max(0, found));
    if (key.scoring === "all_or_nothing") found = found === 1 ? 1 : 0;
    return { score: key.points * found, max: key.points, correct: found === 1, said: said };
  }


  // --- question types with a script of their own ------------------------------

  // A type whose widget script (site_overrides/assets/lessonkit/types/, the type's
  // `script`) registers it here reads, writes, grades and marks its own questions:
  // {read(question), write(question, response), share(key, response, said),
  //  mark(question, key, seen, mark), mount(question, key)}; the types written into this
  // file are the ones not (yet) registered.
  var types = {};
  // The types still written into this file: their scripts are not fetched.
  var BUILT_IN = ["single", "multiple", "true_false", "numeric", "text", "order", "match"];

  function register(name, type) {
    types[name] = type;
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
  // It holds each answered question's response by id, and under SEEN the ids of the
  // questions whose full answer the reader has opened (not asked again on a retry).
  var SEEN = "#seen";

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

  function keep(saved) {
    try {
      localStorage.setItem(store(), JSON.stringify(saved));
    } catch (error) { /* nothing to do: progress is a convenience */ }
  }

  function save(id, response) {
    var saved = load();
    if (response === undefined) delete saved[id];
    else saved[id] = response;
    keep(saved);
  }

  function saveSeen(id, seen) {
    var saved = load();
    var ids = (saved[SEEN] || []).filter(function (other) { return other !== id; });
    if (seen) ids.push(id);
    saved[SEEN] = ids;
    keep(saved);
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text) made.textContent = text;
    return made;
  }

  function read(question, key) {
    var type = key.type;
    if (types[type]) return types[type].read(question, key);
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
    if (types[type]) return types[type].write(question, key, response);
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


  // --- marks in place ----------------------------------------------------------

  function unmark(question) {
    question.querySelectorAll(".lk-mark").forEach(function (mark) { mark.remove(); });
    question.querySelectorAll(".lk-right, .lk-wrong").forEach(function (marked) {
      marked.classList.remove("lk-right", "lk-wrong");
    });
    question.classList.remove("lk-done", "lk-missed");
  }

  function mark(target, right, feedback, words) {
    target.classList.add(right ? "lk-right" : "lk-wrong");
    var note = element("span", "lk-mark", words || (right ? "✓ Right" : "✗ Wrong"));
    if (feedback) {
      var said = element("span", "lk-said");
      said.innerHTML = feedback.innerHTML.replace(/^[a-z]\) /, "");
      note.appendChild(document.createTextNode(": "));
      note.appendChild(said);
    }
    target.appendChild(note);
  }

  function isRight(key, input) {
    return key.type === "true_false" ? (input.value === "1") === key.answer
      : key.correct.indexOf(+input.value) >= 0;
  }

  // What was chosen is marked right or wrong; once the reader has seen the full answer,
  // the right options they missed are marked too, and each order item says where it goes.
  function markParts(question, key) {
    var seen = question.lkSeen;
    if (types[key.type]) return types[key.type].mark(question, key, seen, mark);
    question.querySelectorAll(".lk-options input").forEach(function (input) {
      var about = key.type === "true_false" ? null
        : question.querySelector('.lk-about [data-option="' + input.value + '"]');
      if (input.checked) mark(input.closest(".lk-option"), isRight(key, input), about);
      else if (seen && isRight(key, input)) {
        mark(input.closest(".lk-option"), true, about, "✓ Right, not chosen");
      }
    });
    question.querySelectorAll(".lk-order > li").forEach(function (li, at) {
      var item = +li.getAttribute("data-item");
      var words = item === at ? "✓ In place" : seen ? "✗ Belongs at " + (item + 1) : "✗ Not here";
      mark(li, item === at, null, words);
    });
    question.querySelectorAll(".lk-pairs select").forEach(function (select, n) {
      mark(select.parentNode, +select.value === n, null);
    });
  }

  function show(question, key, result) {
    // A right answer opens the full answer below, so from now on the reader has seen it.
    // That is noted here rather than left to the "toggle" event, which the browser sends
    // later: a quick second answer would otherwise be marked as if it were unseen.
    if (result.correct) noteSeen(question);
    unmark(question);
    markParts(question, key);
    var verdict = result.correct ? "✓ Correct" : result.score > 0 ? "◐ Partly correct" : "✗ Incorrect";
    // How a typed number was read, and any hint about it, as the terminal says them.
    var said = (result.said || []).map(function (line) {
      return line[0].toUpperCase() + line.slice(1) + (/[.!?]$/.test(line) ? "" : ".");
    });
    question.querySelector(".lk-result").textContent =
      [verdict + ": " + points(result.score, result.max) + "."].concat(said).join(" ");
    question.classList.add("lk-done");
    question.classList.toggle("lk-missed", !result.correct);
    question.lkScore = result;
    // A right answer opens the explanation; a wrong one leaves the answer closed, so the
    // reader can try again before looking (the marks say which choices were wrong).
    if (result.correct) question.querySelector("details.lk-answer").open = true;
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

  // The reader opened the full answer (or a right answer opened it): from now on the
  // question is not asked again by "Retry", and what they missed is marked in place.
  function seen(question, key) {
    if (question.lkSeen) return;
    noteSeen(question);
    if (question.lkScore) show(question, key, question.lkScore);
    tally(question.closest(".lk-self-check"));
  }

  function noteSeen(question) {
    if (question.lkSeen) return;
    question.lkSeen = true;
    saveSeen(question.id, true);
  }

  function reset(question, key) {
    unmark(question);
    write(question, key, null);
    question.lkScore = null;
    question.lkSeen = false;
    question.querySelector(".lk-result").textContent = "";
    question.querySelector("details.lk-answer").open = false;
    save(question.id, undefined);
    saveSeen(question.id, false);
  }

  // A real second try: missed, and the full answer not yet seen, or new numbers to come.
  function retryable(question) {
    return question.lkScore && !question.lkScore.correct &&
      (!question.lkSeen || !!question.lkRenumber);
  }

  function tally(block) {
    var questions = block.querySelectorAll(".lk-question");
    var done = 0;
    var score = 0;
    var max = 0;
    var again = 0;
    questions.forEach(function (question) {
      var found = question.lkScore;
      max += JSON.parse(question.getAttribute("data-key")).points;
      if (found) {
        done += 1;
        score += found.score;
      }
      if (retryable(question)) again += 1;
    });
    var bar = block.querySelector(".lk-tally");
    bar.querySelector("p").textContent = done
      ? "Your score: " + points(score, max) +
        " (" + percent(score, max, parseFloat(block.getAttribute("data-pass-mark"))) + "), " +
        done + " of " + questions.length + " answered."
      : "";
    bar.querySelector(".lk-retry").hidden = !again;
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
    var name = "“" + li.firstChild.textContent + "”";
    var said = question.querySelector(".lk-result");
    if (at < 0 || at >= items.length) {
      said.textContent = name + " is " + (step < 0 ? "first" : "last") + " already.";
      return;
    }
    list.insertBefore(li, step < 0 ? items[at] : items[at].nextSibling);
    list.querySelectorAll(".lk-mark").forEach(function (old) { old.remove(); });
    list.querySelectorAll(".lk-right, .lk-wrong").forEach(function (old) {
      old.classList.remove("lk-right", "lk-wrong");
    });
    var moved = li.querySelector(step < 0 ? ".lk-up" : ".lk-down");
    (at === 0 || at === items.length - 1 ? li.querySelector(step < 0 ? ".lk-down" : ".lk-up")
      : moved).focus();
    said.textContent = name + " is now number " + (at + 1) + " of " + items.length + ".";
  }

  // A question with parameters carries every draw's numbers (computed when the site was
  // built): showing another draw is putting its texts in the slots and its answer in the key.
  function renumber(question, key, drawn, at) {
    question.querySelectorAll(".lk-n").forEach(function (slot) {
      slot.textContent = drawn.slots[at][+slot.getAttribute("data-n")];
    });
    if (drawn.answers) key.answer = drawn.answers[at];
    question.setAttribute("data-numbers", String(at));
    save("numbers:" + question.id, at);
  }

  function another(drawn, now) {
    var count = drawn.slots.length;
    if (count < 2) return 0;
    var next = Math.floor(Math.random() * (count - 1));
    return next >= now ? next + 1 : next;
  }

  function mountNumbers(question, key, saved, bar) {
    var drawn = JSON.parse(question.getAttribute("data-variants"));
    var at = saved["numbers:" + question.id];
    // One draw per visit; a kept answer keeps the numbers it was given for.
    if (saved[question.id] === undefined || !drawn.slots[at]) at = another(drawn, -1);
    renumber(question, key, drawn, at);
    if (drawn.slots.length < 2) return;
    question.lkRenumber = function () {
      renumber(question, key, drawn, another(drawn, +question.getAttribute("data-numbers")));
    };
    bar.appendChild(button("Try new numbers", "lk-new", function () {
      question.lkRenumber();
      reset(question, key);
      question.querySelector(".lk-result").textContent = "New numbers: answer again.";
      tally(question.closest(".lk-self-check"));
    }));
  }

  // --- mounting a block ----------------------------------------------------------

  // Said only once the script runs: the page without it has no Check button and no
  // moving items, and its own words say to open the answer instead.
  var INSTRUCTIONS = { order: "Put these in order, first at the top." };

  function mountQuestion(question, saved) {
    var key = JSON.parse(question.getAttribute("data-key"));
    if (types[key.type] && types[key.type].mount) types[key.type].mount(question, key);
    var instruction = question.querySelector(".lk-instruction");
    if (instruction && INSTRUCTIONS[key.type]) instruction.textContent = INSTRUCTIONS[key.type];
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
    if (question.hasAttribute("data-variants")) mountNumbers(question, key, saved, bar);
    var result = element("p", "lk-result");
    result.setAttribute("role", "status");
    bar.appendChild(result);
    var answer = question.querySelector("details.lk-answer");
    question.insertBefore(bar, answer);
    answer.addEventListener("toggle", function () {
      if (answer.open) seen(question, key);
    });
    question.querySelectorAll(".lk-field input").forEach(function (input) {
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") check(question, key, false);
      });
    });
    if ((saved[SEEN] || []).indexOf(question.id) >= 0) {
      question.lkSeen = true;
      answer.open = true;
    }
    if (saved[question.id] !== undefined) {
      write(question, key, saved[question.id]);
      check(question, key, true);
    }
    return key;
  }

  function mountBlock(block, saved) {
    var questions = Array.prototype.slice.call(block.querySelectorAll(".lk-question"));
    var keys = {};
    var intro = block.querySelector(".lk-intro");
    if (intro) {
      intro.textContent = questions.length + " question" + (questions.length === 1 ? "" : "s") +
        ". Answer, then press Check (or open the answer to see it).";
    }
    var bar = element("div", "lk-tally");
    bar.appendChild(element("p"));
    bar.setAttribute("role", "status");
    var retry = button("Retry the ones I missed", "lk-retry", function () {
      var first = null;
      questions.forEach(function (question) {
        if (retryable(question)) {
          if (question.lkRenumber) question.lkRenumber(); // a calculation comes back anew
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

  // --- the rest of the page ------------------------------------------------------

  // The theme names a section's navigation by a label that, with index pages, holds only
  // an icon: name it by the section's title instead.
  function nameNavigation() {
    document.querySelectorAll("nav[aria-labelledby]").forEach(function (nav) {
      var label = document.getElementById(nav.getAttribute("aria-labelledby"));
      var title = nav.querySelector(".md-nav__title");
      if (label && !label.textContent.trim() && title && title.textContent.trim()) {
        nav.removeAttribute("aria-labelledby");
        nav.setAttribute("aria-label", title.textContent.trim().replace(/\s+/g, " "));
      }
    });
  }

  // Wide tables and figures need more code (reading.js), fetched from beside this script
  // on pages that have them only.
  var HERE = document.currentScript ? document.currentScript.src : "";

  function reading() {
    if (window.lessonkit.reading) return window.lessonkit.reading();
    if (!HERE || !document.querySelector("a.lk-zoom, .md-typeset__scrollwrap")) return;
    if (document.querySelector("script.lk-reading")) return;
    var script = element("script", "lk-reading");
    script.src = HERE.replace(/[^/?#]*([?#].*)?$/, "reading.js");
    document.head.appendChild(script);
  }

  // Typed answers (numbers, text) need the longer half of the grading rules, typed.js:
  // fetched from beside this script on pages with such a question only, before any
  // block is mounted, as a kept answer is graded at once.
  function loadTyped(then) {
    if (window.lessonkit.typed || !HERE || !document.querySelector(".lk-self-check .lk-field")) {
      return false;
    }
    if (document.querySelector("script.lk-typed")) return true; // on its way: it mounts
    var script = element("script", "lk-typed");
    script.src = HERE.replace(/[^/?#]*([?#].*)?$/, "typed.js");
    script.onload = then;
    script.onerror = function () {
      window.lessonkit.typed = function () { return fail(NOT_TYPED); };
      then();
    };
    document.head.appendChild(script);
    return true;
  }

  // A type's widget script, fetched from types/ beside this script for the questions on
  // the page whose type has not registered itself yet, before any block is mounted.
  function loadTypes(then) {
    if (!HERE) return false;
    var wanted = {};
    document.querySelectorAll(".lk-self-check .lk-question[data-script]").forEach(function (q) {
      var name = JSON.parse(q.getAttribute("data-key")).type;
      if (!types[name] && BUILT_IN.indexOf(name) < 0) wanted[q.getAttribute("data-script")] = true;
    });
    var scripts = Object.keys(wanted).filter(function (name) {
      return !document.querySelector('script[data-lk-type="' + name + '"]');
    });
    if (!scripts.length) return document.querySelector("script.lk-loading") !== null;
    var left = scripts.length;
    scripts.forEach(function (name) {
      var script = element("script", "lk-loading");
      script.setAttribute("data-lk-type", name);
      script.src = HERE.replace(/[^/?#]*([?#].*)?$/, "types/" + name);
      // A script that cannot load leaves its questions with their answers to open.
      script.onload = script.onerror = function () {
        script.className = "";
        left -= 1;
        if (!left) then();
      };
      document.head.appendChild(script);
    });
    return true;
  }

  function mount() {
    if (loadTyped(mount) || loadTypes(mount)) return;
    var saved = load();
    document.querySelectorAll(".lk-self-check").forEach(function (block) {
      if (!block.querySelector(".lk-tally")) mountBlock(block, saved);
    });
    nameNavigation();
    reading();
  }

  window.lessonkit = { grade: grade, element: element, button: button, register: register };
  // With navigation.instant the theme swaps pages without reloading them, and
  // announces each new page through `document$`.
  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(mount);
  } else {
    document.addEventListener("DOMContentLoaded", mount);
  }
})();
