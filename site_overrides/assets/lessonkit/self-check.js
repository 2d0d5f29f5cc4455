/* lessonkit: answer the self-checks on a lesson page and check them in place, graded
   exactly as `lessonkit quiz` grades (src/lessonkit/grader.py and responses.py; the
   table in tests/grading_cases.json holds both to it). Answers are kept in this
   browser's localStorage only: no network, no cookies. Without this script every
   question still has its answer in a <details> block that opens on click. */
(function () {
  "use strict";

  var SIGNS = { usd: "$", eur: "€", gbp: "£", jpy: "¥", cny: "¥", inr: "₹" };
  var UNIT_WORDS = { "%": ["percent", "per cent"] };
  var PERCENT = ["%", "percent"];
  var GROUPING = " _'\u2019"; // marks that only ever group digits
  var NUMERAL = /^[0-9.,_'\u2019 ]+$/;
  var EXPONENT = /^(.+?)e([-+]?[0-9]+)$/;
  var SPACES = /[\s\x1c-\x1f\x85]+/;
  var LINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
  var END_PUNCTUATION = /[.!?,;:\u2026 ]+$/;
  var QUOTES = { "\"": "\"", "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb" };
  var ARTICLE = /^(?:the|an|a) (?=\S)/i;
  var BOTH = /^(.+?) ?\((.+)\)$/;
  var BATCH = 4; // questions shown at a time

  // --- grading: the same rules as grader.py and numbers.py -----------------

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

  // The terminal writes `code` in its messages; the page puts it in quotation marks.
  function quoted(text) {
    return "“" + text + "”";
  }

  function withoutUnit(typed, unit) {
    if (!unit) return typed;
    var folded = clean(unit);
    var words = [folded].concat(UNIT_WORDS[folded] || []);
    for (var i = 0; i < words.length; i += 1) {
      if (typed.endsWith(words[i]) && typed !== words[i]) {
        typed = typed.slice(0, -words[i].length).trimEnd();
        break;
      }
    }
    var sign = SIGNS[folded];
    if (sign && stripAll(typed, sign) && typed !== stripAll(typed, sign)) {
      if (typed.startsWith(sign)) typed = typed.slice(sign.length);
      if (typed.endsWith(sign)) typed = typed.slice(0, -sign.length);
      typed = typed.trim();
    }
    return typed;
  }

  function stripAll(text, sign) {
    while (text.startsWith(sign)) text = text.slice(sign.length);
    while (text.endsWith(sign)) text = text.slice(0, -sign.length);
    return text;
  }

  // The mark that separates the decimals, or null when every mark groups digits; a
  // lone `,` or `.` before three digits is read by the question's convention.
  function decimalMark(groups, marks, shown, convention, sign) {
    var last = marks[marks.length - 1];
    if (!marks.length || ".,".indexOf(last) < 0) return null;
    if (marks.indexOf(last) !== marks.length - 1) return { mark: null };
    if (marks.length > 1) return { mark: last };
    if (groups[1].length !== 3 || groups[0].length < 1 || groups[0].length > 3 ||
        groups[0][0] === "0") {
      return { mark: last };
    }
    var reads = { point: ".", comma: "," }[convention];
    if (!reads) {
      var number = sign + groups[0] + groups[1];
      var fraction = (sign + groups[0] + "." + groups[1]).replace(/0+$/, "").replace(/\.$/, "");
      // Written so that it cannot be read as thousands: 12.3450, 1.5, 1.
      var plain = fraction.split(".")[1] && fraction.split(".")[1].length === 3
        ? fraction + "0" : fraction;
      return fail(quoted(shown) + " could be " + number + " (with " + quoted(last) +
        " grouping thousands) or " + fraction + " (with a decimal " + quoted(last) +
        "). Type " + quoted(number) + " or " + quoted(plain) + ".");
    }
    return { mark: last === reads ? last : null };
  }

  function checkGrouping(whole, marks, shown) {
    var kind = marks[0];
    if (marks.some(function (m) { return m !== kind; })) {
      return fail(quoted(shown) + " groups digits with two different marks. Use one, e.g. " +
        quoted("1,234,567.5") + " or " + quoted("1 234 567,5") + ".");
    }
    var first = whole[0];
    var last = whole[whole.length - 1];
    var middle = whole.slice(1, -1);
    var threes = middle.concat([last]).every(function (g) { return g.length === 3; });
    var indian = kind === "," && last.length === 3 &&
      middle.every(function (g) { return g.length === 2; });
    if (first.length >= 1 && first.length <= 3 && (threes || (indian && first.length <= 2))) {
      return null;
    }
    if (GROUPING.indexOf(kind) >= 0) {
      var name = kind === " " ? "space" : quoted(kind);
      return fail(quoted(shown) + " is not one number: a " + name +
        " may only group digits in threes, as in " + quoted("12" + kind + "345") +
        ". Type one number.");
    }
    return fail(quoted(shown) + " is not a number: " + quoted(kind) +
      " here does not group digits in threes, as in " + quoted("1" + kind + "234" + kind + "567") +
      ". Type one number, e.g. " + quoted("1234567") + ".");
  }

  // `body` as parseFloat reads it, or {error}.
  function numberDigits(body, shown, unit, convention, sign) {
    var exponent = "";
    var found = EXPONENT.exec(body);
    if (found && /^[0-9.,]+$/.test(found[1])) {
      body = found[1];
      exponent = "e" + found[2];
    }
    body = body.split(SPACES).join(" ");
    var notANumber = fail(quoted(shown) + " is not a number. Type digits such as " +
      quoted("2.5") + " or " + quoted("2,5") + (unit ? ", optionally followed by " + unit : "") +
      ".");
    if (!NUMERAL.test(body)) return notANumber;
    var groups = [""];
    var marks = [];
    for (var i = 0; i < body.length; i += 1) {
      if (body[i] >= "0" && body[i] <= "9") {
        groups[groups.length - 1] += body[i];
      } else {
        marks.push(body[i]);
        groups.push("");
      }
    }
    var decimal = decimalMark(groups, marks, shown, convention, sign);
    if (decimal && decimal.error) return decimal;
    var mark = decimal ? decimal.mark : null;
    var whole = groups;
    var fraction = "";
    if (mark !== null) {
      whole = groups.slice(0, -1);
      fraction = groups[groups.length - 1];
      marks = marks.slice(0, -1);
    }
    if (marks.length) {
      var wrong = checkGrouping(whole, marks, shown);
      if (wrong) return wrong;
    } else if (!whole[0] && (mark === null || !fraction)) {
      return notANumber;
    }
    if (exponent && marks.length) {
      return fail(quoted(shown) + " groups digits and has an exponent. Type one or the other.");
    }
    return { digits: whole.join("") + (mark !== null ? "." + fraction : "") + exponent };
  }

  function numberText(value) {
    return value === 0 ? "0" : String(value);
  }

  // A typed number: {value, typed, readAs} or {error}, as numbers.read_number.
  function readNumber(text, unit, convention) {
    var typed = clean(text);
    var shown = typed;
    var body = withoutUnit(typed, unit);
    var written = body;
    var sign = "";
    if (body[0] === "-" || body[0] === "+") {
      sign = body[0] === "-" ? "-" : "";
      body = body.slice(1).trimStart();
    }
    var found = numberDigits(body, shown, unit, convention || "point", sign);
    if (found.error) return found;
    var value = parseFloat(sign + found.digits);
    if (!isFinite(value)) return fail(quoted(shown) + " is too large. Type an ordinary finite number.");
    var read = numberText(value);
    return {
      value: value,
      typed: text.trim(),
      readAs: written === read ? "" : read + (unit ? " " + unit : "")
    };
  }

  // A hint for a wrong number that looks like a share where a percentage was asked for.
  function numberNotes(key, value) {
    var abs = Math.abs(value);
    if (PERCENT.indexOf(key.unit) < 0 || !(abs > 0 && abs < 1 && Math.abs(key.answer) >= 1)) {
      return [];
    }
    var share = numberText(value);
    var percent = numberText(parseFloat((value * 100).toPrecision(12)));
    return ["The unit is %: your " + share + " means " + share + " %. A share of " + share +
      " is " + percent + " %."];
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

  // Normalised text without what frames an answer: end punctuation, quotes, an article.
  function bare(text) {
    var kept = text;
    text = text.replace(END_PUNCTUATION, "");
    if (text.length > 1 && QUOTES[text[0]] === text[text.length - 1]) {
      text = text.slice(1, -1).trim().replace(END_PUNCTUATION, "");
    }
    text = text.replace(ARTICLE, "");
    return text || kept; // an answer that is only punctuation stays what it is
  }

  function formRight(key, text) {
    var cs = !!key.case_sensitive;
    var typed = bare(normalise(text, cs));
    var spaced = normalise(text, true);
    var forms = [spaced, bare(spaced)];
    return key.accept.some(function (answer) {
      return bare(normalise(answer, cs)) === typed;
    }) || key.patterns.some(function (pattern) {
      return forms.some(function (form) { return fullmatch(pattern, form, cs); });
    });
  }

  // As grader.text_right: see its docstring for what is normalised and what is not.
  function textRight(key, text) {
    if (key.multiline) {
      var typed = lines(text, !!key.case_sensitive);
      var spaced = lines(text, true);
      return key.accept.some(function (answer) {
        return lines(answer, !!key.case_sensitive) === typed;
      }) || key.patterns.some(function (pattern) {
        return fullmatch(pattern, spaced, !!key.case_sensitive);
      });
    }
    if (formRight(key, text)) return true;
    var both = BOTH.exec(bare(normalise(text, true)));
    return !!both && formRight(key, both[1]) && formRight(key, both[2]);
  }

  // The share of the points a number earns; what to tell the reader goes into `said`.
  function numberShare(key, response, said) {
    var number = readNumber(response, key.unit, key.decimal_mark);
    if (number.error) return number;
    if (number.readAs) said.push("read as " + number.readAs);
    var allowed = 0;
    if (key.tolerance != null) allowed = Math.max(allowed, key.tolerance);
    if (key.relative_tolerance != null) {
      allowed = Math.max(allowed, key.relative_tolerance * Math.abs(key.answer));
    }
    var slack = 4 * ulp(Math.max(Math.abs(key.answer), Math.abs(number.value)));
    if (Math.abs(number.value - key.answer) <= allowed + slack) return 1;
    Array.prototype.push.apply(said, numberNotes(key, number.value));
    return 0;
  }

  // The share of the points a response earns, or {error} when it cannot be graded
  // (the terminal refuses such input and asks again).
  function share(key, response, said) {
    var type = key.type;
    if (type === "numeric" || type === "text") {
      if (typeof response !== "string" || !clean(response)) return fail("Nothing was typed.");
      if (type === "text") return textRight(key, response) ? 1 : 0;
      return numberShare(key, response, said);
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


  // --- the page ------------------------------------------------------------

  function num(value) {
    return value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  }

  function points(score, max) {
    return num(score) + " of " + num(max) + " point" + (max === 1 ? "" : "s");
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
    // How a typed number was read, and any hint about it, as the terminal says them.
    var said = (result.said || []).map(function (line) {
      return line[0].toUpperCase() + line.slice(1) + (/[.!?]$/.test(line) ? "" : ".");
    });
    question.querySelector(".lk-result").textContent =
      [verdict + ": " + points(result.score, result.max) + "."].concat(said).join(" ");
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
      ? "Your score: " + points(score, max) + ", " + done + " of " + questions.length + " answered."
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
    question.lkRenumber = function () {
      renumber(question, key, drawn, another(drawn, +question.getAttribute("data-numbers")));
    };
    if (drawn.slots.length < 2) return;
    bar.appendChild(button("Try new numbers", "lk-new", function () {
      question.lkRenumber();
      reset(question, key);
      question.querySelector(".lk-result").textContent = "New numbers: answer again.";
      tally(question.closest(".lk-self-check"));
    }));
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
    if (question.hasAttribute("data-variants")) mountNumbers(question, key, saved, bar);
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
