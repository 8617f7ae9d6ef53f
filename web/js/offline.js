// Offline use: registers the service worker (sw.js), and when a new build has installed beside the running one,
// shows the new-version prompt, whose button lets the new build take over. Every open tab of the app then reloads, the one that
// clicked and the others alike: the new worker's caches hold only the new build, so a tab that went on running the
// old page would fetch its later files (pattern databases, a pool worker's Pyodide) from another build. The
// position (in the link) and the player's moves (in the tab's storage) survive the reload; a search under way is
// lost, as it must be, since it could not go on within one build.
//
// The promise it returns says when the page may fetch its large files: at once when a worker already serves the
// page (or there can be none); on a first visit, once the first worker has precached the app and taken the page
// over, so that Pyodide is downloaded once, through it, instead of once by the page and again by the precache
// (or after FIRST_INSTALL_WAIT_MS, or when installing fails: the app then starts from the network as before).
//
//   await registerServiceWorker({ prompt: element, button: its reload button });
//   solver.start();

const FIRST_INSTALL_WAIT_MS = 60_000;

export function registerServiceWorker({ prompt, button }) {
  if (!('serviceWorker' in navigator)) return Promise.resolve();
  // whether a worker serves this page: the first install's worker takes over a page that was loaded from the
  // network, of its own build, so that change of controller needs no reload; any later change does
  let controlled = navigator.serviceWorker.controller !== null;
  let reloading = false;
  let served;
  const serving = new Promise(resolve => { served = resolve; });
  if (controlled) served();
  setTimeout(served, FIRST_INSTALL_WAIT_MS);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled && !reloading) {
      reloading = true;
      location.reload();
    }
    controlled = true;
    served();
  });
  const offer = worker => {
    if (!navigator.serviceWorker.controller) return;  // the first install: nothing older to replace
    prompt.hidden = false;
    button.onclick = () => worker.postMessage('skip-waiting');
  };
  navigator.serviceWorker.register('sw.js').then(registration => {
    if (registration.waiting) offer(registration.waiting);
    // only a first install takes the page over; a page a worker does not serve (a forced reload) starts at once
    const first = registration.active ? null : registration.installing;
    if (!first) served();
    first?.addEventListener('statechange', () => {
      if (first.state === 'redundant') served();  // its install failed
    });
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed') offer(worker);
      });
    });
  }).catch(served);  // no service worker (a private window, say): the app works online as before
  return serving;
}
