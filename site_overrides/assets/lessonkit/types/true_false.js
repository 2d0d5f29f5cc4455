/* lessonkit: the `true_false` question type on the page (questiontypes/truefalse.py).
   Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function isRight(key, input) {
    return (input.value === "1") === key.answer;
  }

  lk.register("true_false", {
    share: function (key, response) {
      return response === key.answer ? 1 : 0;
    },
    read: function (question) {
      var chosen = lk.options(question).filter(function (i) { return i.checked; })[0];
      return chosen ? chosen.value === "1" : null;
    },
    write: function (question, key, response) {
      lk.options(question).forEach(function (input) {
        input.checked = response !== null && response === (input.value === "1");
      });
    },
    mark: function (question, key, seen) {
      lk.markOptions(question, seen, function (input) { return isRight(key, input); }, false);
    }
  });
})(window.lessonkit);
