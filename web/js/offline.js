// Offline use: registers the service worker (sw.js), and when a new build has installed beside the running one,
// calls onUpdate(apply): apply() lets the new build take over. Every open tab of the app then reloads, the one that
// clicked and the others alike: the new worker's caches hold only the new build, so a tab that went on running the
// old page would fetch its later files (pattern databases, a pool worker's Pyodide) from another build. The
// position (in the link) and the player's moves (in the tab's storage) survive the reload; a search under way is
// lost, as it must be, since it could not go on within one build.
//
//   registerServiceWorker({ onUpdate: apply => showBanner(apply) });

export function registerServiceWorker({ onUpdate }) {
  if (!('serviceWorker' in navigator)) return;
  // whether a worker serves this page: the first install's worker takes over a page that was loaded from the
  // network, of its own build, so that change of controller needs no reload; any later change does
  let controlled = navigator.serviceWorker.controller !== null;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled && !reloading) {
      reloading = true;
      location.reload();
    }
    controlled = true;
  });
  const offer = worker => {
    if (!navigator.serviceWorker.controller) return;  // the first install: nothing older to replace
    onUpdate(() => worker.postMessage('skip-waiting'));
  };
  navigator.serviceWorker.register('sw.js').then(registration => {
    if (registration.waiting) offer(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed') offer(worker);
      });
    });
  }).catch(() => {});  // no service worker (a private window, say): the app works online as before
}
