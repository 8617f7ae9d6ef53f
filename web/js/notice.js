// The page's notice line: a message about the page as a whole (a broken link, names a link gave that the puzzle
// does not offer), shown until it is closed or a good link replaces it.

export class Notice {
  constructor({ box, text, close }) {
    Object.assign(this, { box, text });
    close.addEventListener('click', () => this.hide());
  }

  show(text) {
    this.text.textContent = text;
    this.box.hidden = false;
  }

  hide() {
    this.box.hidden = true;
  }
}
