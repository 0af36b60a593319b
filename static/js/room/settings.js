/*
 * On/off settings, by key ("gobang.muted", "gobang.confirmMoves", "gobang.moveNumbers",
 * "gobang.forbidden", "gobang.spectatorChat"; the "gobang." prefix may be left out).
 *
 * A logged-in player's are the account's preferences: base.html renders them on <body> as
 * data-preferences, and a change is saved to the account (data-preferences-url, with the page's
 * CSRF token), so it follows them to every page and device. A visitor's live in localStorage as
 * "1" or "0"; storage can be blocked (private windows, strict settings), and a setting then
 * reads as its default and is honoured on this page only.
 *
 * Confirm-moves defaults to on for touch screens, where a mistap is easy and not undone.
 */

// Setting key -> [account preference, whether the setting is its opposite].
const ACCOUNT = {
  "gobang.muted": ["sound", true],
  "gobang.confirmMoves": ["confirm", false],
  "gobang.moveNumbers": ["numbers", false],
  "gobang.forbidden": ["forbidden", false],
  "gobang.spectatorChat": ["spectator_chat", false],
};

const body = document.body;
const account = readAccount();

function readAccount() {
  try {
    return body.dataset.preferences ? JSON.parse(body.dataset.preferences) : null;
  } catch (e) {
    return null;
  }
}

function fullKey(key) {
  return key.startsWith("gobang.") ? key : `gobang.${key}`;
}

function touchScreen() {
  return Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
}

function byDefault(key) {
  return key === "gobang.confirmMoves" && touchScreen();
}

export function readSetting(key) {
  const full = fullKey(key);
  const mapped = ACCOUNT[full];
  if (account && mapped) {
    const [name, inverted] = mapped;
    const value = account[name];
    if (typeof value !== "boolean") return byDefault(full);
    return inverted ? !value : value;
  }
  try {
    const stored = localStorage.getItem(full);
    return stored === null ? byDefault(full) : stored === "1";
  } catch (e) {
    return byDefault(full);
  }
}

/** Settles once the setting is kept (never rejects): most callers need not wait; one the server
    reads (the spectators' chat, read when a player joins a game) goes on after it. */
export function writeSetting(key, on) {
  const full = fullKey(key);
  const mapped = ACCOUNT[full];
  if (account && mapped) {
    const [name, inverted] = mapped;
    account[name] = inverted ? !on : Boolean(on);
    return saveToAccount({[name]: account[name]});
  }
  try {
    localStorage.setItem(full, on ? "1" : "0");
  } catch (e) { /* not remembered, still honoured on this page */ }
  return Promise.resolve();
}

/** Fire and forget: the setting already holds on this page; a failed save only means the next
    page starts from the saved value. */
function saveToAccount(changes) {
  return fetch(body.dataset.preferencesUrl, {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": body.dataset.csrfToken},
    body: JSON.stringify(changes),
  }).then(() => undefined, () => { /* offline: see above */ });
}

/** Keeps a checkbox in step with a setting: it starts from the saved value (announced with a
    change event, so that the page's own listener acts on it) and each change is saved. */
export function followSetting(checkbox, key) {
  const saved = readSetting(key);
  if (checkbox.checked !== saved) {
    checkbox.checked = saved;
    checkbox.dispatchEvent(new Event("change"));
  }
  checkbox.addEventListener("change", () => writeSetting(key, checkbox.checked));
}

// The room's move-numbers checkbox is wired to the board (room/board_controller.js) but not to
// a setting: this keeps it, once the room's script has run and is listening.
if (document.getElementById("room")) {
  setTimeout(() => followSetting(document.getElementById("numbers-toggle"), "gobang.moveNumbers"), 0);
}
