// Taps, clicks and swipes on a board, each heard once: a click (mouse or keyboard) or a touch tap calls onTap(target)
// with the element under the finger; a finger or mouse dragged at least SWIPE_PX calls onSwipe(direction). A touch
// tap is taken from the pointer events themselves, not from the click the browser may make of it (Chromium made no
// click of taps that followed a swipe in the tests), and that click, when it comes, is then ignored.

const SWIPE_PX = 24;  // a shorter drag is a tap

/** Listen on `element`: onTap(target) for a click or a tap, onSwipe('up' | 'down' | 'left' | 'right'). */
export function listenTaps(element, { onTap, onSwipe = () => {} }) {
  let press = null;     // {x, y, id} of the pointer pressed on the element
  let handled = false;  // the pointer was handled on its release: the click it may end with is not another tap
  element.addEventListener('pointerdown', event => {
    press = { x: event.clientX, y: event.clientY, id: event.pointerId };
    handled = false;
  });
  element.addEventListener('pointercancel', () => { press = null; });
  element.addEventListener('pointerup', event => {
    const pressed = press;
    press = null;
    if (pressed?.id !== event.pointerId) return;
    const dx = event.clientX - pressed.x, dy = event.clientY - pressed.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE_PX) {
      handled = true;
      if (Math.abs(dx) > Math.abs(dy)) onSwipe(dx > 0 ? 'right' : 'left');
      else onSwipe(dy > 0 ? 'down' : 'up');
    } else if (event.pointerType === 'touch') {
      handled = true;
      onTap(event.target);
    }
  });
  element.addEventListener('click', event => {
    if (handled && event.detail > 0) return;  // a keyboard's click (detail 0) always counts
    onTap(event.target, event);
  });
}
