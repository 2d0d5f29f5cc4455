/* lessonkit: what helps a reader with wide tables and figures on a lesson page. The
   self-check script loads this file on pages that have either, and this file runs its
   part again after each instant navigation (`lessonkit.reading`). */
(function () {
  "use strict";

  var element = window.lessonkit.element;
  var button = window.lessonkit.button;

  // A table's name for a screen reader: its caption, else its first column headings.
  function tableName(wrap) {
    var caption = wrap.querySelector("caption");
    var heads = Array.prototype.map.call(wrap.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    }).filter(Boolean);
    var name = caption ? caption.textContent.trim()
      : heads.slice(0, 3).join(", ") + (heads.length > 3 ? ", …" : "");
    return "Table" + (name ? ": " + name : "");
  }

  // A table wider than the screen scrolls sideways: say so, and let the keyboard scroll
  // it. Each scrolling table is a region named for itself, so none shares a name.
  function markScrolling() {
    var used = {};
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      var hint = wrap.previousElementSibling;
      if (!hint || !hint.classList.contains("lk-scroll-hint")) {
        hint = element("p", "lk-scroll-hint", "Scroll the table sideways to see all of it →");
        hint.setAttribute("aria-hidden", "true");
        wrap.parentNode.insertBefore(hint, wrap);
      }
      hint.hidden = !scrolls;
      wrap.classList.toggle("lk-scrolls", scrolls);
      if (scrolls) {
        var name = tableName(wrap);
        used[name] = (used[name] || 0) + 1;
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", name + (used[name] > 1 ? " (" + used[name] + ")" : "") +
          ", scrolls sideways");
      } else {
        ["tabindex", "role", "aria-label"].forEach(function (name) { wrap.removeAttribute(name); });
      }
    });
  }

  // A figure opens in place, at the screen's width or its own if larger (a drawing at
  // twice its size on the page), over the page:
  // pinch zoom and panning work, Esc, the Close button and the back button close it,
  // and the image is the one already on the page (no download, nothing from elsewhere).
  function zoom(event) {
    var link = event.target.closest && event.target.closest("a.lk-zoom");
    if (!link || event.button || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var image = link.querySelector("img");
    if (!image || typeof HTMLDialogElement === "undefined") return;
    event.preventDefault();
    event.stopPropagation();
    var view = element("dialog", "lk-figure");
    view.setAttribute("aria-label", "Figure, enlarged");
    var big = element("img");
    big.src = image.currentSrc || image.src;
    big.alt = image.alt;
    // A drawing (SVG) scales without blur: twice its width on the page, so that its small
    // labels become readable on a phone, where its own width is barely the screen's.
    var drawn = /\.svg([?#]|$)/i.test(big.src);
    var twice = drawn ? 2 * image.getBoundingClientRect().width : 0;
    big.style.width = "max(100%, " + Math.round(Math.max(image.naturalWidth || 0, twice)) + "px)";
    var close = button("Close", "lk-figure-close", function () { view.close(); });
    view.appendChild(close);
    view.appendChild(big);
    view.addEventListener("close", function () {
      view.remove();
      if (history.state && history.state.lkFigure) history.back();
      link.focus();
    });
    document.body.appendChild(view);
    history.pushState({ lkFigure: true }, "");
    view.showModal();
  }

  function unzoom() {
    var open = document.querySelector("dialog.lk-figure[open]");
    if (open) open.close();
  }

  // mkdocs-material gives each code block's buttons a <nav> with no name; unnamed
  // navigation landmarks cannot be told apart by a screen reader's list of landmarks.
  function nameCodeToolbars() {
    document.querySelectorAll("nav.md-code__nav").forEach(function (nav, at) {
      if (!nav.hasAttribute("aria-label")) {
        nav.setAttribute("aria-label", "Code block " + (at + 1) + ": copy and select");
      }
    });
  }

  function laidOut() {
    // After the theme has wrapped the tables and the page is laid out.
    nameCodeToolbars();
    setTimeout(markScrolling, 0);
  }

  window.lessonkit.reading = laidOut;
  window.addEventListener("resize", markScrolling);
  window.addEventListener("load", markScrolling);
  window.addEventListener("popstate", unzoom);
  document.addEventListener("click", zoom, true);
  laidOut();
})();
