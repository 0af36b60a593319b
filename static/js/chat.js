/* What the hall's and the room's chat share: reading the draft and keeping the log tidy.
   Message text is always inserted as text, never as HTML. */
(function () {
  "use strict";

  const t = window.t;
  const MAX_CHARS = 300;
  const KEPT = 200;

  /** The trimmed draft, or null (after telling the user why) when it cannot be sent. */
  function draft(input, showError) {
    const text = input.value.trim();
    if (!text) return null;
    if (text.length > MAX_CHARS) {
      showError(t("Messages are at most 300 characters."));
      return null;
    }
    return text;
  }

  /** Appends a message line, keeps the log short, and follows it down if the reader was at
      the bottom (someone scrolled up to read stays where they are). */
  function append(log, li) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.appendChild(li);
    while (log.children.length > KEPT) log.firstChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  window.GobangChat = {draft: draft, append: append};
})();
