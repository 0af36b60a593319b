/*
 * t(key, params): the page scripts' words in the page's language.
 *
 *   t("Your turn")                          // "轮到你了" on a Chinese page
 *   t("{name} declined your challenge.", {name: "ann"})
 *
 * Keys are the English text. The page carries the translations as JSON in the data-i18n
 * attribute of <div id="i18n">, rendered by the server from gobang/i18n (English pages send
 * an empty object); a missing key falls back to the English text.
 * Placeholders are {name}; the values are inserted as they are, so callers still put the
 * result into the page with textContent.
 */
(function (global) {
  "use strict";

  let catalogue = {};
  const holder = document.getElementById("i18n");
  if (holder) {
    try {
      catalogue = JSON.parse(holder.dataset.i18n || "{}") || {};
    } catch (e) {
      catalogue = {};  // a broken catalogue leaves the page in English, never blank
    }
  }

  function t(key, params) {
    const text = Object.prototype.hasOwnProperty.call(catalogue, key) && catalogue[key] ? catalogue[key] : key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
  }

  global.t = t;
})(window);
