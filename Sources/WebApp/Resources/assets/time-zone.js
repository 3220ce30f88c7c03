// The pages write dates and times in the time zone that the
// rewind_time_zone cookie names, the server's without it. This keeps the
// browser's zone there, and draws a page written in another zone once
// more (the first visit, or after the computer moved to another zone), so
// that "today 09:00" is nine here and the date fields of an item's page
// hold times this browser reads back as its own.

var cookieName = 'rewind_time_zone';

// The browser's IANA zone name ("Europe/Berlin"), or undefined.
export function browserTimeZone() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return undefined; }
}

function cookieZone() {
  var pairs = document.cookie ? document.cookie.split('; ') : [];
  for (var i = 0; i < pairs.length; i += 1) {
    var at = pairs[i].indexOf('=');
    if (pairs[i].slice(0, at) === cookieName) {
      try { return decodeURIComponent(pairs[i].slice(at + 1)); } catch (e) { return null; }
    }
  }
  return null;
}

// Whether two zones tell the same time all through this year and the next,
// a moment a week apart ("UTC" and "Etc/UTC" do); false for a name this
// browser does not know.
function sameClock(one, other) {
  try {
    var options = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' };
    var first = new Intl.DateTimeFormat('en-US', Object.assign({ timeZone: one }, options));
    var second = new Intl.DateTimeFormat('en-US', Object.assign({ timeZone: other }, options));
    var start = Date.UTC(new Date().getUTCFullYear(), 0, 1, 12);
    for (var week = 0; week < 106; week += 1) {
      var moment = start + week * 7 * 24 * 3600 * 1000;
      if (first.format(moment) !== second.format(moment)) { return false; }
    }
    return true;
  } catch (e) {
    return false;
  }
}

// Keeps the browser's zone in the cookie; when the page was written in a
// zone whose clock differs, and the cookie now names this one, loads the
// page again (once: the cookie then holds the zone already).
export function followBrowserTimeZone() {
  var zone = browserTimeZone();
  if (!zone || cookieZone() === zone) { return; }
  document.cookie = cookieName + '=' + encodeURIComponent(zone) + '; Path=/; Max-Age=31536000; SameSite=Lax';
  var meta = document.querySelector('meta[name="rewind-time-zone"]');
  if (meta && cookieZone() === zone && !sameClock(meta.getAttribute('content'), zone)) {
    window.location.reload();
  }
}
