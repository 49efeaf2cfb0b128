// Starts the app once the page's server-rendered first screen has painted (the reader's opening,
// server modules/pages/first-screen.ts; issue 18). Its ~30 module requests, fetched during the
// first layout, made that layout wait on a busy browser and server: 130-320 ms instead of
// 65-125. The server puts this script in place of the app's entry and module preloads, which it
// passes here (data-entry, data-preloads).
/* global window, document */
(function () {
  var script = document.currentScript;
  var entry = script.getAttribute('data-entry');
  var preloads = (script.getAttribute('data-preloads') || '').split(' ');
  var started = false;
  function start() {
    if (started) return;
    started = true;
    for (var index = 0; index < preloads.length; index++) {
      if (!preloads[index]) continue;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = preloads[index];
      document.head.appendChild(link);
    }
    var main = document.createElement('script');
    main.type = 'module';
    main.crossOrigin = '';
    main.src = entry;
    document.head.appendChild(main);
  }
  // A hidden tab renders no frame: start at once. Otherwise after the next frame (an animation
  // frame's callback runs before it renders, a timeout set there after), and at the latest
  // after a second, whatever holds the frames back.
  if (document.visibilityState === 'hidden') return start();
  window.requestAnimationFrame(function () {
    window.setTimeout(start, 0);
  });
  window.setTimeout(start, 1000);
})();
