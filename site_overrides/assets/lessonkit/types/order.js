/* lessonkit: the `order` question type on the page (questiontypes/order.py): items moved
   with ↑ and ↓; partial credit counts the fewest items to move (order.py's docstring).
   Registered with self-check.js, which loads this file. */
(function (lk) {
  "use strict";

  function items(question) {
    return question.querySelectorAll(".lk-order > li");
  }

  // order.py's in_order, line for line: which placings (bank indices, first to last)
  // belong to the longest subsequence already in the right order, taking the earliest
  // placings of several; the others are out of place.
  function inOrder(placed) {
    var count = placed.length, longest = [], kept = [], i, j;
    for (i = 0; i < count; i += 1) { longest.push(1); kept.push(false); }
    for (i = count - 1; i >= 0; i -= 1) {
      for (j = i + 1; j < count; j += 1) {
        if (placed[j] > placed[i] && longest[j] + 1 > longest[i]) longest[i] = longest[j] + 1;
      }
    }
    var need = count ? Math.max.apply(null, longest) : 0, last = -1;
    for (i = 0; i < count; i += 1) {
      if (need && longest[i] === need && placed[i] > last) {
        kept[i] = true; need -= 1; last = placed[i];
      }
    }
    return kept;
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
    kept: inOrder, // for tests/test_browser.py, which holds it to the table's marks
    share: function (key, response) {
      var kept = inOrder(response).filter(Boolean).length;
      return (kept - 1) / (key.count - 1);
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
    // Each item says whether it is in order with the others marked so, or out of place
    // (the items to move, as the credit counts them); once the answer is seen, where an
    // item out of place goes.
    mark: function (question, key, seen) {
      var placed = Array.prototype.map.call(items(question), function (li) {
        return +li.getAttribute("data-item");
      });
      var kept = inOrder(placed);
      items(question).forEach(function (li, at) {
        var words = kept[at] ? "✓ In order" : seen ? "✗ Out of place: belongs at " +
          (placed[at] + 1) : "✗ Out of place";
        lk.mark(li, kept[at], null, words);
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
