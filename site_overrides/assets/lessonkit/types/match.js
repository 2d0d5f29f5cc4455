/* lessonkit: the `match` question type on the page (questiontypes/match.py): each item
   on the left takes one answer from a list; partial credit is the share matched right.
   Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function selects(question) {
    return question.querySelectorAll(".lk-pairs select");
  }

  lk.register("match", {
    share: function (key, response) {
      if (response.indexOf(null) >= 0) return lk.fail("Match every item first.");
      // As in the terminal: each answer on the right goes to one item at most.
      var twice = response.filter(function (v, i) { return response.indexOf(v) !== i; });
      if (twice.length) {
        return lk.fail("An answer is chosen twice. Give each answer to one item at most.");
      }
      return response.filter(function (choice, i) { return choice === i; }).length / key.count;
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
    mark: function (question) {
      selects(question).forEach(function (select, n) {
        lk.mark(select.parentNode, +select.value === n, null);
      });
    }
  });
})(window.lessonkit);
