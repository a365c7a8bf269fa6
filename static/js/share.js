/* The end of a game: "Share the result" uses the Web Share API where the browser has it, else
 * copies the link to the game's page, else shows the link selected for copying by hand. The
 * button carries the link, the text and its translated words as data attributes.
 * A competition's results picture ([data-share-picture]): the image itself goes to the share
 * sheet where the browser shares files, else the download link beside the button is followed. */
(function () {
  "use strict";

  /* What the share button shares, from its data attributes. */
  function shareData(dataset) {
    return { title: dataset.title, text: dataset.text, url: dataset.url };
  }

  /* How this browser shares: "share" (the Web Share API takes these data), "copy" (the
   * clipboard, in a secure page) or "by-hand" (the link shown, selected). */
  function way(nav, secure, data) {
    if (nav.share && (!nav.canShare || nav.canShare(data))) return "share";
    return nav.clipboard && secure ? "copy" : "by-hand";
  }

  /* How this browser shares a picture: "share-file" (the Web Share API takes files) or
   * "download" (the link beside the button). */
  function pictureWay(nav, data) {
    return nav.share && nav.canShare && nav.canShare(data) ? "share-file" : "download";
  }

  /* What a picture's share sheet gets: the file, its title and its words. */
  function pictureData(dataset, file) {
    return { files: [file], title: dataset.title, text: dataset.text };
  }

  var pure = { shareData: shareData, way: way, pictureWay: pictureWay, pictureData: pictureData };
  if (typeof module !== "undefined" && module.exports) module.exports = pure;
  if (typeof document === "undefined") return;

  // -- the page ---------------------------------------------------------------------------------
  function status(button, text) {
    var line = document.getElementById(button.getAttribute("aria-controls"));
    if (line) line.textContent = text;
  }

  function fallback(button) {
    var url = button.dataset.url;
    if (way({ clipboard: navigator.clipboard }, window.isSecureContext, null) === "copy") {
      navigator.clipboard.writeText(url).then(function () {
        status(button, button.dataset.copied);
      }, function () { showLink(button); });
    } else {
      showLink(button);
    }
  }

  function showLink(button) {
    var input = document.getElementById(button.dataset.linkField);
    if (!input) return;
    input.hidden = false;
    input.value = button.dataset.url;
    input.focus();
    input.select();
    status(button, button.dataset.copyByHand);
  }

  function download(button) {
    var link = document.getElementById(button.dataset.download);
    if (link) link.click();
    status(button, button.dataset.downloaded);
  }

  function sharePicture(button) {
    if (!navigator.share || !navigator.canShare || typeof File === "undefined") {
      download(button);
      return;
    }
    fetch(button.dataset.url, { credentials: "same-origin" }).then(function (answer) {
      if (!answer.ok) throw new Error(answer.status);
      return answer.blob();
    }).then(function (blob) {
      var data = pictureData(button.dataset, new File([blob], button.dataset.file, { type: blob.type }));
      if (pictureWay(navigator, data) !== "share-file") return download(button);
      return navigator.share(data).then(function () { status(button, button.dataset.shared); }, function (error) {
        if (!error || error.name !== "AbortError") download(button);
      });
    }).catch(function () { download(button); });
  }

  document.addEventListener("click", function (event) {
    var picture = event.target.closest && event.target.closest("[data-share-picture]");
    if (picture) {
      sharePicture(picture);
      return;
    }
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button) return;
    var data = shareData(button.dataset);
    if (way(navigator, window.isSecureContext, data) === "share") {
      navigator.share(data).then(function () { status(button, button.dataset.shared); }, function (error) {
        if (error && error.name === "AbortError") return;  // the player closed the share sheet
        fallback(button);
      });
    } else {
      fallback(button);
    }
  });
})();
