/* lessonkit: the `match` question type on the page (questiontypes/match.py): each item
   on the left takes one answer from a list; partial credit is the share matched right.
   `key.answers` (when several items share an answer) is each item's answer; without it
   item n's answer is choice n, and no answer may be chosen twice.
   Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function selects(question) {
    return question.querySelectorAll(".lk-pairs select");
  }

  function answer(key, n) {
    return key.answers ? key.answers[n] : n;
  }

  lk.register("match", {
    share: function (key, response) {
      if (response.indexOf(null) >= 0) return lk.fail("Match every item first.");
      // As in the terminal: unless answers are shared, each goes to one item at most.
      var twice = response.filter(function (v, i) { return response.indexOf(v) !== i; });
      if (twice.length && !key.answers) {
        return lk.fail("An answer is chosen twice. Give each answer to one item at most.");
      }
      return response.filter(function (choice, i) {
        return choice === answer(key, i);
      }).length / key.count;
    },
    read: function (question) {
      return Array.prototype.map.call(selects(question), function (s) {
        return s.value === "" ? null : +s.value;
      });
    },
    write: function (question, key, response) {
      selects(question).forEach(function (select, n) {
        select.value = response && response[n] !== null ? String(response[n]) : "";
      });
    },
    mark: function (question, key) {
      selects(question).forEach(function (select, n) {
        lk.mark(select.parentNode, +select.value === answer(key, n), null);
      });
    }
  });
})(window.lessonkit);
