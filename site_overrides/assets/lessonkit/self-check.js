/* lessonkit: answer the self-checks on a lesson page and check them in place, graded
   exactly as `lessonkit quiz` grades (each question type's module in
   src/lessonkit/questiontypes/; the table in tests/grading_cases.json holds both to it).
   This script is the page: checking, marks, scores, retries, kept answers. What a
   question type knows (reading its controls, grading, marking its parts) is in its own
   widget script, types/TYPE.js beside this one, which registers itself here
   (`lessonkit.register`); a page loads the scripts of the types it shows, and no others.
   Checked answers are kept in this browser's localStorage, and what was typed but not
   yet checked in sessionStorage for the tab's visit: no network, no cookies. Without
   this script every question still has its answer in a <details> block that opens on
   click. */
(function () {
  "use strict";

  var BATCH = 4; // questions shown at a time
  var UNAVAILABLE = "This answer cannot be checked here: open the answer to compare.";

  // --- the question types ----------------------------------------------------

  // Each type's widget script registers, by the type's name (its key's `type`):
  //   share(key, response, said): the share of the points a response earns (0 to 1), or
  //     {error} when it cannot be graded (the terminal refuses such input and asks
  //     again); what to tell the reader besides (how a number was read) goes into `said`;
  //   read(question, key): the response its controls hold now (null: nothing chosen);
  //   write(question, key, response): put a kept response back (null: clear them);
  //   mark(question, key, seen): mark each part right or wrong in place (`seen`: the
  //     reader has opened the full answer, so what they missed may be marked too);
  //   mount(question, key): anything its controls need once this script runs (optional);
  // A key's `uses` lists other types whose scripts the type calls (through `grade`), so
  // the page loads them as well.
  //   instruction: what to say instead of the page's own instruction (optional).
  var types = {};

  function register(name, methods) {
    types[name] = methods;
  }

  // A type whose script could not be loaded: its questions keep their answers to open.
  var UNLOADED = {
    share: function () { return fail(UNAVAILABLE); },
    read: function () { return ""; },
    write: function () {}
  };

  function typeOf(key) {
    return types[key.type] || UNLOADED;
  }

  function fail(message) {
    return { error: message };
  }

  // {score, max, correct, said}: `said` is how a number was read and any hint about it.
  function grade(key, response) {
    var said = [];
    if (response === null || response === undefined) return fail("Choose an answer first.");
    var found = typeOf(key).share(key, response, said);
    if (found.error) return found;
    found = Math.min(1, Math.max(0, found));
    if (key.scoring === "all_or_nothing") found = found === 1 ? 1 : 0;
    return { score: key.points * found, max: key.points, correct: found === 1, said: said };
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

  // What the reader typed or chose but has not checked yet, and how many questions of each
  // block they asked to see, kept for this tab's visit (sessionStorage): instant navigation
  // may render the page afresh on a table-of-contents click, which must lose nothing.
  function drafts() {
    try {
      return JSON.parse(sessionStorage.getItem(store()) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  function keepDraft(name, value) {
    var kept = drafts();
    if (value === undefined) delete kept[name];
    else kept[name] = value;
    try {
      sessionStorage.setItem(store(), JSON.stringify(kept));
    } catch (error) { /* nothing to do: a draft is a convenience */ }
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text) made.textContent = text;
    return made;
  }

  // Helpers the widget scripts share: a typed answer's field, and a choice's options.
  function field(question) {
    return question.querySelector(".lk-field input, .lk-field textarea");
  }

  function options(question) {
    return Array.prototype.slice.call(question.querySelectorAll(".lk-options input"));
  }

  // Each chosen option marked right or wrong, with the author's feedback on it; once the
  // reader has seen the full answer, the right options they missed are marked too.
  function markOptions(question, seen, isRight, feedback) {
    options(question).forEach(function (input) {
      var about = feedback
        ? question.querySelector('.lk-about [data-option="' + input.value + '"]') : null;
      var option = input.closest(".lk-option");
      if (input.checked) mark(option, isRight(input), about);
      else if (seen && isRight(input)) mark(option, true, about, "✓ Right, not chosen");
      option.lkChosen = input.checked;
    });
  }


  // --- marks in place ----------------------------------------------------------

  // A mark that no longer fits the reader's choice (an option unticked since, or ticked
  // after "Right, not chosen", a match changed) goes at once: it spoke of the last Check.
  function unmarkStale(question) {
    question.querySelectorAll(".lk-option").forEach(function (option) {
      var input = option.querySelector("input");
      if (option.lkChosen !== undefined && input.checked !== option.lkChosen) clear(option);
    });
    question.querySelectorAll(".lk-pairs select").forEach(function (select) {
      if (select.lkMarked !== undefined && select.value !== select.lkMarked) {
        clear(select.parentNode);
      }
    });
  }

  function clear(part) {
    part.querySelectorAll(".lk-mark").forEach(function (mark) { mark.remove(); });
    part.classList.remove("lk-right", "lk-wrong");
  }

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

  // Each part marked in place by its type; once the reader has seen the full answer,
  // what they missed is marked too.
  function markParts(question, key) {
    var type = typeOf(key);
    if (type.mark) type.mark(question, key, !!question.lkSeen);
    question.querySelectorAll(".lk-pairs select").forEach(function (select) {
      select.lkMarked = select.value;
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
    var response = typeOf(key).read(question, key);
    var result = grade(key, response);
    if (result.error) {
      // A kept answer that no longer fits (the bank changed) is dropped without a word.
      if (quiet) save(question.id, undefined);
      else {
        question.querySelector(".lk-result").textContent = result.error;
        inView(question.querySelector(".lk-check"));
      }
      return;
    }
    show(question, key, result);
    if (!quiet) {
      save(question.id, response);
      keepDraft(question.id, undefined);
      inView(question.querySelector(".lk-check"));
    }
    tally(question.closest(".lk-self-check"));
  }

  // The marks and feedback a Check adds push the verdict down; on a phone, below the
  // screen. Scroll just enough to show it again (not at all when it is in view).
  function inView(bar) {
    var box = bar.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) bar.scrollIntoView({ block: "nearest" });
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
    typeOf(key).write(question, key, null);
    question.lkScore = null;
    question.lkSeen = false;
    question.querySelector(".lk-result").textContent = "";
    question.querySelector("details.lk-answer").open = false;
    save(question.id, undefined);
    saveSeen(question.id, false);
    keepDraft(question.id, undefined);
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

  function mountQuestion(question, saved) {
    var key = JSON.parse(question.getAttribute("data-key"));
    var type = typeOf(key);
    // Said only once the script runs: the page without it has no Check button (nor, for
    // some types, working controls), and its own words say to open the answer instead.
    var instruction = question.querySelector(".lk-instruction");
    if (instruction && type.instruction) instruction.textContent = type.instruction;
    if (type.mount) type.mount(question, key);
    var bar = element("div", "lk-check");
    var checking = button("Check", "", function () { check(question, key, false); });
    // Named for its question (Check question 6): saying “click Check”, a voice-control
    // user would meet thirty of them.
    var number = question.querySelector(".lk-number");
    if (number) checking.setAttribute("aria-label", "Check " + number.textContent.toLowerCase());
    bar.appendChild(checking);
    if (question.hasAttribute("data-variants")) mountNumbers(question, key, saved, bar);
    var result = element("p", "lk-result");
    result.setAttribute("role", "status");
    bar.appendChild(result);
    var answer = question.querySelector("details.lk-answer");
    question.insertBefore(bar, answer);
    // Seen only when the reader opened it: find-in-page (Ctrl+F) and a link to a text
    // fragment open a closed <details> too, and a search must not drop it from "Retry".
    answer.querySelector("summary").addEventListener("click", function () {
      question.lkOpening = !answer.open;
    });
    answer.addEventListener("toggle", function () {
      if (answer.open && question.lkOpening) seen(question, key);
      question.lkOpening = false;
    });
    // Whatever the reader changes is kept as a draft until checked (an order moves by click).
    var changed = function () {
      unmarkStale(question);
      var response = type.read(question, key);
      keepDraft(question.id, response === null ? undefined : response);
    };
    ["input", "change", "click"].forEach(function (name) {
      question.addEventListener(name, function (event) {
        if (!event.target.closest("details, .lk-check")) setTimeout(changed, 0);
      });
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
      type.write(question, key, saved[question.id]);
      check(question, key, true);
    }
    var draft = drafts()[question.id];
    if (draft !== undefined && JSON.stringify(draft) !== JSON.stringify(saved[question.id])) {
      type.write(question, key, draft);
      unmarkStale(question);
      question.lkDraft = true;
    }
    return key;
  }

  function mountBlock(block, saved, at) {
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
    var revealed = "#shown:" + at;
    var shown = Math.max(BATCH, drafts()[revealed] || 0, questions.reduce(function (last, q, n) {
      return q.lkScore || q.lkDraft ? n + 1 : last;
    }, 0));
    if (questions.length > shown) {
      var more = button("", "lk-more", function () {
        var next = questions.filter(function (q) { return q.hidden; }).slice(0, BATCH);
        next.forEach(function (q) { q.hidden = false; });
        next[0].querySelector(".lk-prompt").setAttribute("tabindex", "-1");
        next[0].querySelector(".lk-prompt").focus();
        keepDraft(revealed, questions.length - questions.filter(function (q) {
          return q.hidden;
        }).length);
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

  // The widget script of each type on the page, fetched from types/ beside this script
  // before any block is mounted (a kept answer is graded at once); a page loads only the
  // types it shows. A script that cannot be loaded leaves its questions to be opened.
  var loading = {};

  function loadTypes(then) {
    var wanted = {};
    document.querySelectorAll(".lk-self-check .lk-question[data-key]").forEach(function (q) {
      var key = JSON.parse(q.getAttribute("data-key"));
      // `uses`: the types whose scripts this one grades its parts with (a cloze's blanks).
      [key.type].concat(key.uses || []).forEach(function (type) {
        if (!types[type]) wanted[type] = true;
      });
    });
    var missing = Object.keys(wanted);
    if (!missing.length || !HERE) return false;
    missing.forEach(function (type) {
      if (loading[type]) return; // on its way: it mounts when it comes
      loading[type] = true;
      var script = element("script", "lk-type");
      script.src = HERE.replace(/[^/?#]*([?#].*)?$/, "types/" + type + ".js");
      script.onload = script.onerror = function () {
        if (!types[type]) types[type] = UNLOADED;
        delete loading[type];
        if (!Object.keys(loading).length) then();
      };
      document.head.appendChild(script);
    });
    return true;
  }

  // The heading a link points at (#section), while mounting the blocks above it shortens
  // the page: the browser has often scrolled to it already, and it must stay where the
  // reader landed, under the header, rather than end up thousands of pixels above.
  function target() {
    var id = decodeURIComponent(location.hash.slice(1));
    return id && !/^:~:/.test(id) ? document.getElementById(id) : null;
  }

  function mount() {
    if (loadTypes(mount)) return;
    var saved = load();
    var landed = target();
    var before = landed ? landed.getBoundingClientRect().top : null;
    document.querySelectorAll(".lk-self-check").forEach(function (block, at) {
      if (!block.querySelector(".lk-tally")) mountBlock(block, saved, at);
    });
    // Only when the heading was on screen, where the browser's scroll put it: a reader
    // who has scrolled elsewhere is left where they are.
    if (landed && before !== null && before >= -1 && before < window.innerHeight) {
      window.scrollBy(0, landed.getBoundingClientRect().top - before);
    }
    nameNavigation();
    reading();
  }

  // Text as the terminal reads it: Python's casefold() where lower case is not enough,
  // NFKC (full-width digits), a typographic minus and spaces made plain.
  function fold(text) {
    return text.toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ");
  }

  function clean(text) {
    text = text.normalize("NFKC").replace(/[\u2212\u2013]/g, "-").replace(/[\u00a0\u202f]/g, " ");
    return fold(text.trim());
  }

  window.lessonkit = {
    grade: grade, element: element, button: button, register: register, fail: fail,
    mark: mark, field: field, options: options, markOptions: markOptions, fold: fold,
    clean: clean
  };
  // With navigation.instant the theme swaps pages without reloading them, and
  // announces each new page through `document$`.
  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(mount);
  } else {
    document.addEventListener("DOMContentLoaded", mount);
  }
})();
