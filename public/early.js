// Runs before the page is first painted (a classic script in <head>, not a module, so that it
// blocks rendering; a separate file so that the Content-Security-Policy can forbid inline
// scripts). Three things, none of which may fail loudly:
//   1. links of earlier versions (?page=training&…, ?embed=figure&…) go to the pre-rendered
//      document of that view (training/?…), keeping the other parameters and the fragment (a
//      view that does not exist stays here, where the app says so);
//   2. the reader's stored colour theme applies before anything is drawn;
//   3. when the link asks for settings, the pre-rendered numbers and figures (drawn at the
//      defaults) are marked as updating until the app replaces them (class "stale" on <html>).
(function () {
  var html = document.documentElement;
  var params = new URLSearchParams(location.search);
  var here = html.getAttribute('data-view') || 'home';
  var want = params.has('embed') ? 'embed/' + params.get('embed') : params.get('page');
  var known = (html.getAttribute('data-views') || '').split(' ');
  if (want && want !== here && known.indexOf(want) >= 0) {
    params.delete('page');
    params.delete('embed');
    var rest = params.toString();
    var root = new URL(html.getAttribute('data-root') || './', location.href);
    var path = want === 'home' ? '' : want + '/';
    location.replace(new URL(path + (rest ? '?' + rest : ''), root).href + location.hash);
    return;
  }
  try {
    var theme = localStorage.getItem('amplification-explorer-theme');
    if (theme === 'light' || theme === 'dark') html.setAttribute('data-theme', theme);
  } catch (e) {
    // Storage refused (privacy mode): the system's theme applies.
  }
  params.delete('page');
  params.delete('embed');
  if (params.toString() !== '') html.classList.add('stale');
})();
