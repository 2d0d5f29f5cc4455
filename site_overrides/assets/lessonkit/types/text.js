/* lessonkit: the `text` question type on the page (src/lessonkit/questiontypes/text.py
   and grading/textmatch.py): free text compared as a reader expects (case, spaces, end
   punctuation, quotes, a leading article), or matched by a pattern. Registered with
   self-check.js, which loads this file on pages with a text question only. */
(function (lk) {
  "use strict";

  var SPACES = /[\s\x1c-\x1f\x85]+/;
  var LINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
  var END_PUNCTUATION = /[.!?,;:\u2026 ]+$/;
  var QUOTES = { "\"": "\"", "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb" };
  var ARTICLE = /^(?:the|an|a) (?=\S)/i;
  var BOTH = /^(.+?) ?\((.+)\)$/;
  var fold = lk.fold;

  function normalise(text, caseSensitive) {
    text = text.normalize("NFKC");
    return (caseSensitive ? text : fold(text)).split(SPACES).filter(Boolean).join(" ");
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

  // As textmatch.text_right: see its docstring for what is normalised and what is not.
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

  lk.register("text", {
    share: function (key, response) {
      if (typeof response !== "string" || !lk.clean(response)) return lk.fail("Nothing was typed.");
      return textRight(key, response) ? 1 : 0;
    },
    read: function (question) {
      return lk.field(question).value;
    },
    write: function (question, key, response) {
      lk.field(question).value = response || "";
    }
  });
})(window.lessonkit);
