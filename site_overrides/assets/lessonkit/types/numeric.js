/* lessonkit: the `numeric` question type on the page (src/lessonkit/questiontypes/numeric.py
   and grading/numbers.py): a number read as people write it (grouping, a decimal point or
   comma, a unit), right within the tolerance. Registered with self-check.js, which loads
   this file on pages with a numeric question only. */
(function (lk) {
  "use strict";

  var SIGNS = { usd: "$", eur: "€", gbp: "£", jpy: "¥", cny: "¥", inr: "₹" };
  var UNIT_WORDS = { "%": ["percent", "per cent"] };
  var PERCENT = ["%", "percent"];
  var GROUPING = " _'\u2019"; // marks that only ever group digits
  var NUMERAL = /^[0-9.,_'\u2019 ]+$/;
  var EXPONENT = /^(.+?)e([-+]?[0-9]+)$/;
  var SPACES = /[\s\x1c-\x1f\x85]+/;
  var clean = lk.clean;
  var fail = lk.fail;

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

  lk.register("numeric", {
    share: function (key, response, said) {
      if (typeof response !== "string" || !clean(response)) return fail("Nothing was typed.");
      return numberShare(key, response, said);
    },
    read: function (question) {
      return lk.field(question).value;
    },
    write: function (question, key, response) {
      lk.field(question).value = response || "";
    }
  });
})(window.lessonkit);
