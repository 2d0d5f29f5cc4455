/* lessonkit: the `single` question type on the page (src/lessonkit/questiontypes/single.py):
   one option is right. Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function isRight(key, input) {
    return key.correct.indexOf(+input.value) >= 0;
  }

  lk.register("single", {
    share: function (key, response) {
      return key.correct.indexOf(response) >= 0 ? 1 : 0;
    },
    read: function (question) {
      var chosen = lk.options(question).filter(function (i) { return i.checked; })[0];
      return chosen ? +chosen.value : null;
    },
    write: function (question, key, response) {
      lk.options(question).forEach(function (input) {
        input.checked = response !== null && response === +input.value;
      });
    },
    mark: function (question, key, seen) {
      lk.markOptions(question, seen, function (input) { return isRight(key, input); }, true);
    }
  });
})(window.lessonkit);
