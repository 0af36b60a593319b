/*
 * Every page: a "Move numbers" checkbox (#numbers-toggle, on the room and replay pages) starts
 * from the player's saved setting and saves each change (room/settings.js says where). Loaded
 * after the page's own script, whose change listener then draws the board accordingly.
 */

import {readSetting, writeSetting} from "./room/settings.js";

const NUMBERS_KEY = "gobang.moveNumbers";
const numbers = document.getElementById("numbers-toggle");

if (numbers) {
  const saved = readSetting(NUMBERS_KEY);
  if (numbers.checked !== saved) {
    numbers.checked = saved;
    numbers.dispatchEvent(new Event("change"));
  }
  numbers.addEventListener("change", () => writeSetting(NUMBERS_KEY, numbers.checked));
}
