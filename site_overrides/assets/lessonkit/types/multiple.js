/* lessonkit: the `multiple` question type on the page (questiontypes/multiple.py): every
   right option is chosen; partial credit is (right - wrong) / right options, at least 0.
   Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function isRight(key, input) {
    return key.correct.indexOf(+input.value) >= 0;
  }

  lk.register("multiple", {
    share: function (key, response) {
      var chosen = response.filter(function (v, i) { return response.indexOf(v) === i; });
      if (!chosen.length) return lk.fail("Choose at least one option.");
      var right = chosen.filter(function (i) { return key.correct.indexOf(i) >= 0; }).length;
      return Math.max(0, right - (chosen.length - right)) / key.correct.length;
    },
    read: function (question) {
      return lk.options(question).filter(function (i) { return i.checked; })
        .map(function (i) { return +i.value; });
    },
    write: function (question, key, response) {
      lk.options(question).forEach(function (input) {
        input.checked = response !== null && response.indexOf(+input.value) >= 0;
      });
    },
    mark: function (question, key, seen) {
      lk.markOptions(question, seen, function (input) { return isRight(key, input); }, true);
    }
  });
})(window.lessonkit);
