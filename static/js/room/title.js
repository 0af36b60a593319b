/* While the tab is hidden and it is our move, the title blinks "Your move". */

import {t} from "../i18n.js";

const BLINK_MS = 1000;

export class TitleFlash {
  /** wanted() says whether the page waits for our move. */
  constructor(wanted) {
    this.wanted = wanted;
    this.baseTitle = document.title;
    this.timer = null;
    document.addEventListener("visibilitychange", () => this.update());
  }

  update() {
    const wanted = document.hidden && this.wanted();
    if (wanted && !this.timer) {
      this.timer = setInterval(() => {
        document.title = document.title === t("Your move") ? this.baseTitle : t("Your move");
      }, BLINK_MS);
      document.title = t("Your move");
    } else if (!wanted && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      document.title = this.baseTitle;
    }
  }
}
