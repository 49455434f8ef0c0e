// Shows the prerendered lab the address names (#lab=NAME; the first, the
// default lab, otherwise) and projector mode if the address asks for it,
// before the first paint: the page's program, still loading, replaces it
// all as it starts. Loaded from the end of the body, so the labs are there.
(() => {
  // A value with a malformed %-escape (#lab=%E9, #lab=%) is read as it
  // stands: decodeURIComponent throws on it, and the page's program, which
  // repairs the address (app/hash.go), says what was wrong with it.
  const param = (name) => {
    const m = new RegExp("(?:^#|&)" + name + "=([^&]*)").exec(location.hash);
    if (!m) return "";
    try {
      return decodeURIComponent(m[1]);
    } catch (e) {
      return m[1];
    }
  };
  const labs = [...document.querySelectorAll(".prerendered > [data-lab]")];
  const want = labs.find((l) => l.dataset.lab === param("lab")) || labs[0];
  for (const l of labs) {
    l.hidden = l !== want;
  }
  if (want && param("present") === "1") {
    const shell = want.querySelector(".explorer");
    if (shell) shell.classList.add("present");
  }
})();
