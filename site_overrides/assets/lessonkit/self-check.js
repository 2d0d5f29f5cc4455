/* lessonkit: lets a reader check a chosen option in place. Without this script the
   self-check still works: the answer is in a <details> block that opens on click. */
(function () {
  "use strict";

  function check(question, output) {
    var inputs = question.querySelectorAll(".lk-options input");
    var chosen = 0;
    var right = true;
    inputs.forEach(function (input) {
      var correct = input.getAttribute("data-correct") === "true";
      var label = input.closest(".lk-option");
      label.classList.remove("lk-right", "lk-wrong");
      if (input.checked) {
        chosen += 1;
        label.classList.add(correct ? "lk-right" : "lk-wrong");
      }
      if (input.checked !== correct) {
        right = false;
      }
    });
    if (chosen === 0) {
      output.textContent = "Pick an option first.";
    } else if (right) {
      output.textContent = "Right.";
    } else {
      output.textContent = "Not quite: open the answer below.";
    }
  }

  function mount(root) {
    root.querySelectorAll(".lk-question").forEach(function (question) {
      var options = question.querySelector(".lk-options");
      if (!options || question.querySelector(".lk-check")) {
        return;
      }
      var bar = document.createElement("p");
      bar.className = "lk-check";
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Check";
      var output = document.createElement("output");
      output.setAttribute("aria-live", "polite");
      button.addEventListener("click", function () {
        check(question, output);
      });
      bar.appendChild(button);
      bar.appendChild(output);
      options.insertAdjacentElement("afterend", bar);
    });
  }

  // With navigation.instant the theme swaps pages without reloading them, and
  // announces each new page through `document$`.
  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(function () {
      mount(document);
    });
  } else {
    document.addEventListener("DOMContentLoaded", function () {
      mount(document);
    });
  }
})();
