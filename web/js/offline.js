// Offline use: registers the service worker (sw.js), and when a new build has installed beside the running one,
// calls onUpdate(apply): apply() lets the new build take over and reloads the page (never two builds' files mixed).
//
//   registerServiceWorker({ onUpdate: apply => showBanner(apply) });

export function registerServiceWorker({ onUpdate }) {
  if (!('serviceWorker' in navigator)) return;
  let accepted = false;
  const offer = worker => {
    if (!navigator.serviceWorker.controller) return;  // the first install: nothing older to replace
    onUpdate(() => {
      accepted = true;
      worker.postMessage('skip-waiting');
    });
  };
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) location.reload();
  });
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
