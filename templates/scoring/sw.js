/* Segnapunti's service worker (served as /sw.js by scoring.pwa_views.service_worker).
 *
 * Keeps the table usable through a reload without network:
 * - the shell (our CSS and JS, htmx, the icon) is cached when the worker installs, and static
 *   files are answered from the cache first (their names change when they change in production);
 * - pages are asked from the network first; a game page (/g/<id>/ and its scoreboard) that
 *   answered is kept, and shown again from the cache when the network is gone. The hands typed
 *   meanwhile wait in the outbox (localStorage, static/js/outbox.js), which the cached page runs.
 * Nothing but GET is touched: the outbox's POSTs go to the network or stay in the outbox.
 *
 * And it shows what Web Push brings (a round that seats the player, scoring.services.push): the
 * message's JSON {title, body, url, tag} as a system notification; a tap focuses a window
 * already on that page (My games), or opens it.
 */
"use strict";

var VERSION = "{{ version }}";
var SHELL_CACHE = "segnapunti-shell-" + VERSION;
var PAGES_CACHE = "segnapunti-pages-" + VERSION;
var SHELL = {{ shell|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
var GAME_PAGE = /^\/g\/\d+\/(board\/)?$/;
var PAGES_KEPT = 12;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    return cache.addAll(SHELL);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("segnapunti-") === 0 && name !== SHELL_CACHE && name !== PAGES_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function trim(cache) {
  return cache.keys().then(function (keys) {
    var extra = keys.length - PAGES_KEPT;
    return Promise.all(keys.slice(0, Math.max(extra, 0)).map(function (k) { return cache.delete(k); }));
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(SHELL_CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
    return;
  }
  if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
    var key = url.origin + url.pathname;  // one copy per game page, whatever its query
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(PAGES_CACHE).then(function (cache) {
          return cache.delete(key).then(function () { return cache.put(key, copy); }).then(function () { return trim(cache); });
        });
      }
      return response;
    }).catch(function () {
      return caches.open(PAGES_CACHE).then(function (cache) { return cache.match(key); }).then(function (hit) {
        if (hit) return hit;
        throw new Error("offline and not kept");
      });
    }));
  }
});

/* The message's parts, from the push event's JSON (a bad one shows the site's name). */
function notice(event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var url = typeof data.url === "string" && data.url.charAt(0) === "/" ? data.url : "/";
  return {
    title: typeof data.title === "string" && data.title ? data.title : "Segnapunti",
    options: {
      body: typeof data.body === "string" ? data.body : "",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      icon: {{ icon|safe }},
      data: { url: url }
    }
  };
}

self.addEventListener("push", function (event) {
  var shown = notice(event);
  event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i += 1) {
      if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
