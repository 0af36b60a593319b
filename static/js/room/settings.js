/* On/off settings kept in localStorage as "1" or "0". Storage can be blocked (private windows,
   strict settings): a setting then reads as off and is honoured on this page only. */

export function readSetting(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch (e) {
    return false;
  }
}

export function writeSetting(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch (e) { /* not remembered, still honoured on this page */ }
}
