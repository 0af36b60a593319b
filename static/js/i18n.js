/*
 * t(key, params): the page scripts' words in the page's language.
 *
 *   import {t} from "./i18n.js";
 *   t("Your turn")                          // "轮到你了" on a Chinese page
 *   t("{name} declined your challenge.", {name: "ann"})
 *
 * Keys are the English text. The page carries the translations as JSON in the data-i18n
 * attribute of <div id="i18n">, rendered by the server from gobang/i18n (English pages send
 * an empty object); a missing key, or a page without the block, falls back to the English text.
 * Placeholders are {name}; the values are inserted as they are, so callers still put the
 * result into the page with textContent.
 */

const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

function readCatalogue() {
  const holder = document.getElementById("i18n");
  if (!holder) return {};
  try {
    return JSON.parse(holder.dataset.i18n || "{}") || {};
  } catch (e) {
    return {};  // a broken catalogue leaves the page in English, never blank
  }
}

const catalogue = readCatalogue();

export function t(key, params) {
  const text = has(catalogue, key) && catalogue[key] ? catalogue[key] : key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (has(params, name) ? String(params[name]) : whole));
}
