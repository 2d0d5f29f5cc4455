/* lessonkit: the `order` question type on the page (questiontypes/order.py): items moved
   with ↑ and ↓; partial credit is the share of neighbouring pairs kept in order.
   Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function items(question) {
    return question.querySelectorAll(".lk-order > li");
  }

  function reorder(question, li, step) {
    var list = li.parentNode;
    var all = Array.prototype.slice.call(list.children);
    var at = all.indexOf(li) + step;
    var name = "“" + li.firstChild.textContent + "”";
    var said = question.querySelector(".lk-result");
    if (at < 0 || at >= all.length) {
      said.textContent = name + " is " + (step < 0 ? "first" : "last") + " already.";
      return;
    }
    list.insertBefore(li, step < 0 ? all[at] : all[at].nextSibling);
    list.querySelectorAll(".lk-mark").forEach(function (old) { old.remove(); });
    list.querySelectorAll(".lk-right, .lk-wrong").forEach(function (old) {
      old.classList.remove("lk-right", "lk-wrong");
    });
    var moved = li.querySelector(step < 0 ? ".lk-up" : ".lk-down");
    (at === 0 || at === all.length - 1 ? li.querySelector(step < 0 ? ".lk-down" : ".lk-up")
      : moved).focus();
    said.textContent = name + " is now number " + (at + 1) + " of " + all.length + ".";
  }

  lk.register("order", {
    instruction: "Put these in order, first at the top.",
    share: function (key, response) {
      var position = {};
      response.forEach(function (item, at) { position[item] = at; });
      var kept = 0;
      for (var i = 0; i + 1 < key.count; i += 1) {
        if (position[i + 1] === position[i] + 1) kept += 1;
      }
      return kept / (key.count - 1);
    },
    read: function (question) {
      return Array.prototype.map.call(items(question), function (li) {
        return +li.getAttribute("data-item");
      });
    },
    write: function (question, key, response) {
      var list = question.querySelector(".lk-order");
      if (!list || !response) return;
      response.forEach(function (item) {
        var li = list.querySelector('[data-item="' + item + '"]');
        if (li) list.appendChild(li);
      });
    },
    // Each item says whether it is in place; once the answer is seen, where it goes.
    mark: function (question, key, seen) {
      items(question).forEach(function (li, at) {
        var item = +li.getAttribute("data-item");
        var words = item === at ? "✓ In place" : seen ? "✗ Belongs at " + (item + 1) : "✗ Not here";
        lk.mark(li, item === at, null, words);
      });
    },
    mount: function (question) {
      items(question).forEach(function (li) {
        var name = li.firstChild.textContent;
        var up = lk.button("↑", "lk-up", function () { reorder(question, li, -1); });
        var down = lk.button("↓", "lk-down", function () { reorder(question, li, 1); });
        up.setAttribute("aria-label", "Move “" + name + "” up");
        down.setAttribute("aria-label", "Move “" + name + "” down");
        li.appendChild(up);
        li.appendChild(down);
      });
    }
  });
})(window.lessonkit);
