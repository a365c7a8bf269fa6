/* My games' notifications button: turns Web Push on and off on this device. On, the browser's
 * push subscription (made with the site's VAPID public key, the #push element's data-key) is
 * sent to data-url (POST, JSON) and the service worker (/sw.js) shows what the site pushes: the
 * round that seats the player, tapped to open My games. Off, it is forgotten (DELETE) and
 * unsubscribed. The section stays hidden where the browser has no Push API or no service
 * worker; its words are its translated data attributes.
 *
 * The first part needs no page (tests/js/push.test.js).
 */
(function () {
  "use strict";

  /* The bytes of a base64url text (the VAPID public key, as applicationServerKey wants it). */
  function keyBytes(text) {
    var base64 = String(text || "").replace(/-/g, "+").replace(/_/g, "/");
    base64 += "===".slice((base64.length + 3) % 4);
    var binary = typeof atob === "function" ? atob(base64) : Buffer.from(base64, "base64").toString("binary");
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /* What the section says and offers: "on" (subscribed), "off", "denied" (blocked in the
   * browser), "failed" (the last try did not work). */
  function view(state) {
    return {
      text: { on: "on", denied: "denied", failed: "failed" }[state] || "intro",
      button: state === "on" ? "turnOff" : "turnOn",
      disabled: state === "denied"
    };
  }

  var push = { keyBytes: keyBytes, view: view };
  if (typeof module !== "undefined" && module.exports) module.exports = push;
  if (typeof window === "undefined" || typeof document === "undefined") return;

  function send(box, method, body) {
    var common = window.segnapunti && window.segnapunti.common;
    return fetch(box.dataset.url, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": common ? common.csrf() : "" },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) throw new Error("refused: " + response.status);
      return response;
    });
  }

  function show(box, state) {
    var shown = view(state);
    box.dataset.state = state;
    box.querySelector("[data-push-text]").textContent = box.dataset[shown.text] || "";
    var button = box.querySelector("button");
    button.textContent = box.dataset[shown.button] || button.textContent;
    button.disabled = shown.disabled;
    button.setAttribute("aria-pressed", state === "on" ? "true" : "false");
  }

  function start(box) {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
    box.hidden = false;
    var ready = navigator.serviceWorker.ready;
    show(box, Notification.permission === "denied" ? "denied" : "off");
    ready.then(function (registration) { return registration.pushManager.getSubscription(); })
      .then(function (subscription) { if (subscription) show(box, "on"); })
      .catch(function () { /* stays "off" */ });
    box.querySelector("button").addEventListener("click", function () {
      var button = this;
      button.disabled = true;
      var turnOn = box.dataset.state !== "on";
      var done = turnOn ? Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") return permission === "denied" ? "denied" : "off";
        return ready.then(function (registration) {
          return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
        }).then(function (subscription) {
          return send(box, "POST", subscription.toJSON()).then(function () { return "on"; });
        });
      }) : ready.then(function (registration) { return registration.pushManager.getSubscription(); })
        .then(function (subscription) {
          if (!subscription) return "off";
          return send(box, "DELETE", { endpoint: subscription.endpoint })
            .then(function () { return subscription.unsubscribe(); })
            .then(function () { return "off"; });
        });
      done.then(function (state) { show(box, state); }, function () { show(box, "failed"); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push");
    if (box) start(box);
  });

  window.segnapunti = window.segnapunti || {};
  window.segnapunti.push = push;
})();
