// Save a text as a file the browser downloads (a hand-in, the grades as CSV): nothing leaves the machine.

/** Offer `text` as a download named `name`, of MIME type `type`. */
export function saveFile(name, text, type) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
